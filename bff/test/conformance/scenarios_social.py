"""python-gitlab scenarios: project snippets and emoji reactions (award emoji)."""

from gitlab import exceptions as glexc

from support import client, expect, expect_equal, expect_error, new_group_with_project, new_user, scenario


@scenario
def project_snippets_with_files_and_raw_content(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-snippets")
    # python-gitlab 3.12 creates with the deprecated single-file form; files come with updates.
    snippet = project.snippets.create({"title": "Setup", "visibility": "private", "file_name": "run.sh", "content": "echo run"})
    expect_equal((snippet.file_name, [f["path"] for f in snippet.files]), ("run.sh", ["run.sh"]), "the created snippet's file")
    snippet.title = "Setup v2"
    snippet.files = [{"action": "move", "previous_path": "run.sh", "file_path": "bin/run.sh"}, {"action": "create", "file_path": "README.md", "content": "# Run"}]
    snippet.save()
    fresh = project.snippets.get(snippet.id)
    expect_equal((fresh.title, sorted(f["path"] for f in fresh.files)), ("Setup v2", ["README.md", "bin/run.sh"]), "the snippet after save()")
    expect_equal(fresh.content().decode(), "# Run", "the snippet's raw content (its first file)")
    expect_equal([s.id for s in project.snippets.list()], [snippet.id], "the project's snippets")
    expect_error(glexc.GitlabUpdateError, 400, lambda: project.snippets.update(snippet.id, {"content": "x"}), "the content form on a snippet of several files")
    project.snippets.delete(snippet.id)
    expect_error(glexc.GitlabGetError, 404, lambda: project.snippets.get(snippet.id), "the deleted snippet")


@scenario
def snippet_award_emoji(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-awards")
    snippet = project.snippets.create({"title": "React", "visibility": "private", "file_name": "a.txt", "content": "a"})
    award = snippet.awardemojis.create({"name": "+1"})
    expect_equal(award.name, "thumbsup", "the stored name of +1")
    expect_equal([a.name for a in snippet.awardemojis.list()], ["thumbsup"], "the snippet's reactions")
    expect_error(glexc.GitlabCreateError, 404, lambda: snippet.awardemojis.create({"name": "thumbsup"}), "the same reaction twice")
    expect_error(glexc.GitlabCreateError, 404, lambda: snippet.awardemojis.create({"name": "no_such_emoji_here"}), "an unknown emoji")
    _, token = new_user(gl)
    other = client(token)
    expect_error(glexc.GitlabGetError, 404, lambda: other.projects.get(project.id).snippets.get(snippet.id), "a private project's snippet for a non-member")
    snippet.awardemojis.delete(award.id)
    expect(not snippet.awardemojis.list(), "no reactions after delete")
