"""python-gitlab scenarios: repository files written and blamed, and a commit's diff, refs and comments."""

import base64

from gitlab import exceptions as glexc

from support import expect, expect_equal, expect_error, new_group_with_project, scenario


@scenario
def files_create_update_delete_and_blame(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-file-writes")
    created = project.files.create({"file_path": "docs/guide.md", "branch": "main", "content": "one\ntwo\n", "commit_message": "docs: start the guide"})
    expect_equal((created.file_path, created.branch), ("docs/guide.md", "main"), "files.create() answers the file and the branch")
    first = project.commits.list(ref_name="main", get_all=True)[0]
    expect_equal(first.title, "docs: start the guide", "the file's commit is the branch's")

    f = project.files.get(file_path="docs/guide.md", ref="main")
    f.content = "one\nTWO\nthree\n"
    f.save(branch="main", commit_message="docs: shout two")
    expect_equal(project.files.raw(file_path="docs/guide.md", ref="main"), b"one\nTWO\nthree\n", "ProjectFile.save() updates the file")
    project.files.update("docs/guide.md", {"branch": "main", "content": base64.b64encode(b"one\nTWO\nthree\n4\n").decode(), "encoding": "base64",
                                           "commit_message": "docs: add four", "author_name": "Py", "author_email": "py@example.com"})
    latest = project.commits.list(ref_name="main", get_all=True)[0]
    expect_equal((latest.title, latest.author_name), ("docs: add four", "Py"), "files.update() with base64 content and an author")

    blame = project.files.blame(file_path="docs/guide.md", ref="main")
    expect_equal([(b["commit"]["id"], b["lines"]) for b in blame], [
        (first.id, ["one"]),
        (project.commits.list(ref_name="main", get_all=True)[1].id, ["TWO", "three"]),
        (latest.id, ["4"]),
    ], "files.blame() groups lines by the commit that last changed them")

    expect_error(glexc.GitlabCreateError, 400, lambda: project.files.create({"file_path": "docs/guide.md", "branch": "main", "content": "x", "commit_message": "m"}),
                 "a file that exists", "already exists")
    expect_error(glexc.GitlabUpdateError, 400, lambda: project.files.update("docs/guide.md", {"branch": "main", "content": "x", "commit_message": "m", "last_commit_id": first.id}),
                 "a stale last_commit_id", "has changed since you started editing it")
    project.files.delete(file_path="docs/guide.md", branch="main", commit_message="docs: drop the guide")
    expect_error(glexc.GitlabGetError, 404, lambda: project.files.get(file_path="docs/guide.md", ref="main"), "a deleted file")
    expect_error(glexc.GitlabDeleteError, 400, lambda: project.files.delete(file_path="docs/guide.md", branch="main", commit_message="m"),
                 "a file that does not exist", "doesn't exist")


@scenario
def commit_diff_refs_and_comments(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-commit-extras")
    project.files.create({"file_path": "a.txt", "branch": "main", "content": "1\n2\n", "commit_message": "chore: a"})
    start = project.commits.list(ref_name="main", get_all=True)[0]
    project.tags.create({"tag_name": "v1", "ref": "main"})
    project.files.update("a.txt", {"branch": "main", "content": "1\nTWO\n", "commit_message": "feat: two"})
    commit = project.commits.get(project.commits.list(ref_name="main", get_all=True)[0].id)

    diffs = commit.diff(get_all=True)
    expect_equal([(d["new_path"], d["diff"]) for d in diffs], [("a.txt", "@@ -1,2 +1,2 @@\n 1\n-2\n+TWO\n")], "commit.diff()")
    expect_equal(sorted((r["type"], r["name"]) for r in project.commits.get(start.id).refs(get_all=True)), [("branch", "main"), ("tag", "v1")], "commit.refs()")
    expect_equal(commit.refs(type="tag", get_all=True), [], "commit.refs(type='tag')")

    note = commit.comments.create({"note": "Why shout?", "path": "a.txt", "line": 2, "line_type": "new"})
    expect_equal((note.note, note.path, note.line, note.line_type), ("Why shout?", "a.txt", 2, "new"), "commit.comments.create() on a line")
    commit.comments.create({"note": "Ship it"})
    listed = commit.comments.list(get_all=True)
    expect_equal([(c.note, c.path) for c in listed], [("Why shout?", "a.txt"), ("Ship it", None)], "commit.comments.list()")
    expect(listed[1].author["username"] == "root", "a comment's author")
