import type { BlameRange, RepositoryFile } from '../../../shared/src/repository-files.ts';
import type { BlameGroup } from '../services/git/blame.ts';
import type { BlobAt, FileWithContent } from '../services/git/repository-files.ts';

type FileMeta = Omit<RepositoryFile, 'content' | 'content_sha256'>;

function presentMeta(f: BlobAt & { lastCommitId: string }, ref: string): FileMeta {
  return {
    file_name: f.name,
    file_path: f.path,
    size: f.size,
    encoding: 'base64',
    ref,
    blob_id: f.sha,
    commit_id: f.commit,
    last_commit_id: f.lastCommitId,
    execute_filemode: f.mode === '100755',
  };
}

export function presentRepositoryFile(f: FileWithContent, ref: string): RepositoryFile {
  const { file_name, file_path, size, encoding, ...rest } = presentMeta(f, ref);
  return { file_name, file_path, size, encoding, content_sha256: f.contentSha256, ...rest, content: f.content.toString('base64') };
}

/**
 * The same answer for a file whose content is streamed: the JSON text before the base64
 * content, and the text after it given the content's SHA-256, which is known only once the
 * content has gone (so `content_sha256` comes last there; JSON readers take fields in any order).
 */
export function repositoryFileFrame(f: BlobAt & { lastCommitId: string }, ref: string): { head: string; tail: (sha256: string) => string } {
  return {
    head: `${JSON.stringify(presentMeta(f, ref)).slice(0, -1)},"content":"`,
    tail: (sha256) => `","content_sha256":${JSON.stringify(sha256)}}`,
  };
}

/** A blame range: its commit in the platform's few fields of a blame commit, and its lines. */
export function presentBlameRange(g: BlameGroup): BlameRange {
  const c = g.commit;
  return {
    commit: {
      id: c.id,
      parent_ids: c.parentIds,
      message: c.message,
      authored_date: c.authoredDate,
      author_name: c.authorName,
      author_email: c.authorEmail,
      committed_date: c.committedDate,
      committer_name: c.committerName,
      committer_email: c.committerEmail,
    },
    lines: g.lines,
  };
}
