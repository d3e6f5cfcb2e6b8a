"""python-gitlab scenarios: repositories (git over HTTP with the real git client) and branches."""

import os
import subprocess
import tempfile
import urllib.parse

from gitlab import exceptions as glexc

from support import ADMIN_TOKEN, URL, expect, expect_equal, expect_error, new_group_with_project, scenario


def push_commits(project, branches=("main",)):
    """Clones the project's repository with the git client and pushes one commit to each branch."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "HOME": tmp, "GIT_AUTHOR_NAME": "Py", "GIT_AUTHOR_EMAIL": "py@example.com",
               "GIT_COMMITTER_NAME": "Py", "GIT_COMMITTER_EMAIL": "py@example.com"}
        parts = urllib.parse.urlsplit(project.http_url_to_repo)
        url = parts._replace(netloc=f"root:{ADMIN_TOKEN}@{parts.netloc}").geturl()
        repo = os.path.join(tmp, "repo")
        subprocess.run(["git", "clone", "--quiet", url, repo], check=True, env=env, capture_output=True)
        for branch in branches:
            subprocess.run(["git", "checkout", "-q", "-B", branch], check=True, cwd=repo, env=env)
            subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", f"feat: {branch}"], check=True, cwd=repo, env=env)
            subprocess.run(["git", "push", "-q", "origin", branch], check=True, cwd=repo, env=env, capture_output=True)


@scenario
def branches_list_get_create_and_delete(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-branches")
    expect(project.http_url_to_repo.startswith(URL), f"http_url_to_repo is served here: {project.http_url_to_repo}")
    push_commits(project, ("main", "feature/x"))
    names = [b.name for b in project.branches.list(get_all=True)]
    expect_equal(names, ["feature/x", "main"], "branches.list()")
    main = project.branches.get("main")
    expect_equal((main.default, main.protected), (True, True), "the default branch is protected")
    expect_equal(main.commit["title"], "feat: main", "the branch's commit")
    created = project.branches.create({"branch": "release/1", "ref": "main"})
    expect_equal(created.commit["id"], main.commit["id"], "a branch created at main")
    expect_equal([b.name for b in project.branches.list(search="release")], ["release/1"], "branches.list(search=)")
    project.branches.delete("release/1")
    expect_error(glexc.GitlabGetError, 404, lambda: project.branches.get("release/1"), "a deleted branch")
    expect_error(glexc.GitlabCreateError, 400, lambda: project.branches.create({"branch": "x", "ref": "no-such-ref"}), "an unknown ref")
