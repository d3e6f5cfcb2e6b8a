"""python-gitlab scenarios: commits (created with actions), tags, files, tree and compare, without a checkout."""

import base64

from gitlab import exceptions as glexc

from support import expect, expect_equal, expect_error, new_group_with_project, scenario


def first_commits(project):
    """main with README.md and src/app.py, then a branch `feature` that edits and adds."""
    project.commits.create({"branch": "main", "commit_message": "chore: start", "actions": [
        {"action": "create", "file_path": "README.md", "content": "# py\n"},
        {"action": "create", "file_path": "src/app.py", "content": base64.b64encode(b"print(1)\n").decode(), "encoding": "base64"},
    ]})
    return project.commits.create({"branch": "feature", "start_branch": "main", "commit_message": "feat: more", "actions": [
        {"action": "update", "file_path": "README.md", "content": "# py\n\nmore\n"},
        {"action": "create", "file_path": "src/util.py", "content": "X = 1\n"},
    ]})


@scenario
def commits_create_list_and_get(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-commits")
    feature = first_commits(project)
    expect_equal(feature.title, "feat: more", "commits.create() answers the commit")
    expect_equal([c.title for c in project.commits.list(get_all=True)], ["chore: start"], "commits.list() of the default branch")
    expect_equal([c.title for c in project.commits.list(ref_name="feature", get_all=True)], ["feat: more", "chore: start"], "commits.list(ref_name=)")
    # python-gitlab reads a `path` keyword as the URL to call: the filter goes in query_parameters.
    expect_equal([c.title for c in project.commits.list(query_parameters={"ref_name": "feature", "path": "src/util.py"}, get_all=True)], ["feat: more"], "commits.list(path=)")
    got = project.commits.get(feature.id)
    expect_equal((got.id, got.stats["additions"]), (feature.id, 3), "commits.get() with stats")
    expect_error(glexc.GitlabGetError, 404, lambda: project.commits.get("no-such-ref"), "an unknown commit")
    expect_error(glexc.GitlabCreateError, 400, lambda: project.commits.create({"branch": "main", "commit_message": "m", "actions": [
        {"action": "create", "file_path": "README.md", "content": "again"}]}), "a file that exists", "already exists")
    expect(project.default_branch is None or project.default_branch == "main", "default_branch")
    expect_equal(gl.projects.get(project.id).empty_repo, False, "the project is no longer empty")


@scenario
def tags_create_list_get_and_delete(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-tags")
    feature = first_commits(project)
    light = project.tags.create({"tag_name": "v1.0", "ref": "main"})
    expect_equal(light.message, None, "a lightweight tag has no message")
    annotated = project.tags.create({"tag_name": "v1.1", "ref": "feature", "message": "Release 1.1"})
    expect_equal((annotated.message, annotated.commit["id"]), ("Release 1.1", feature.id), "an annotated tag")
    expect_equal([t.name for t in project.tags.list(order_by="name", sort="asc", get_all=True)], ["v1.0", "v1.1"], "tags.list(order_by=name)")
    expect_equal(project.tags.get("v1.1").target != feature.id, True, "an annotated tag's target is its tag object")
    project.tags.delete("v1.0")
    expect_error(glexc.GitlabGetError, 404, lambda: project.tags.get("v1.0"), "a deleted tag")
    expect_error(glexc.GitlabCreateError, 400, lambda: project.tags.create({"tag_name": "v1.1", "ref": "main"}), "a taken tag name", "already exists")


@scenario
def files_tree_and_compare(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-files")
    first_commits(project)
    f = project.files.get(file_path="src/app.py", ref="main")
    expect_equal((f.decode(), f.file_name), (b"print(1)\n", "app.py"), "files.get() decodes the base64 content")
    expect_equal(project.files.raw(file_path="README.md", ref="feature"), b"# py\n\nmore\n", "files.raw()")
    expect_error(glexc.GitlabGetError, 404, lambda: project.files.get(file_path="nope.txt", ref="main"), "a missing file")
    top = project.repository_tree(get_all=True)
    expect_equal([(e["name"], e["type"]) for e in top], [("src", "tree"), ("README.md", "blob")], "repository_tree()")
    deep = project.repository_tree(ref="feature", recursive=True, get_all=True)
    expect_equal(sorted(e["path"] for e in deep), ["README.md", "src", "src/app.py", "src/util.py"], "repository_tree(recursive=True)")
    cmp = project.repository_compare("main", "feature")
    expect_equal([c["title"] for c in cmp["commits"]], ["feat: more"], "repository_compare() commits")
    expect_equal(sorted(d["new_path"] for d in cmp["diffs"]), ["README.md", "src/util.py"], "repository_compare() diffs")
