import type { RepositoryFile } from '../../../shared/src/repository-files.ts';
import type { FileWithContent } from '../services/repository-files.ts';

export function presentRepositoryFile(f: FileWithContent, ref: string): RepositoryFile {
  return {
    file_name: f.name,
    file_path: f.path,
    size: f.size,
    encoding: 'base64',
    content_sha256: f.contentSha256,
    ref,
    blob_id: f.sha,
    commit_id: f.commit,
    last_commit_id: f.lastCommitId,
    execute_filemode: f.mode === '100755',
    content: f.content.toString('base64'),
  };
}
