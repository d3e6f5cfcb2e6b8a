"""python-gitlab scenarios: protected branches and tags, and the pushes they refuse."""

from gitlab import exceptions as glexc

from support import client, expect_equal, expect_error, new_group_with_project, new_user, scenario


def with_developer(gl, prefix):
    """A project with a first commit on main (protected by the group's defaults) and a Developer of its group."""
    group, project = new_group_with_project(gl, prefix)
    project.commits.create({"branch": "main", "commit_message": "start", "actions": [{"action": "create", "file_path": "README.md", "content": "# p\n"}]})
    user, token = new_user(gl)
    group.members.create({"user_id": user.id, "access_level": 30})
    return project, client(token).projects.get(project.id)


@scenario
def protected_branches_create_get_delete(ctx):
    gl = ctx["gl"]
    project, as_developer = with_developer(gl, "py-protect")
    main = project.protectedbranches.get("main")
    expect_equal([l["access_level"] for l in main.push_access_levels], [40], "the default branch is protected: Maintainers push")
    release = project.protectedbranches.create({"name": "release-*", "push_access_level": 30, "merge_access_level": 40})
    expect_equal((release.name, release.push_access_levels[0]["access_level_description"]), ("release-*", "Developers + Maintainers"), "protectedbranches.create() with a wildcard")
    expect_equal(sorted(b.name for b in project.protectedbranches.list(get_all=True)), ["main", "release-*"], "protectedbranches.list()")
    expect_error(glexc.GitlabCreateError, 409, lambda: project.protectedbranches.create({"name": "release-*"}), "a name protected already", "already exists")
    # A Developer's commit to the protected default branch is refused, and accepted once it is unprotected.
    commit = {"branch": "main", "commit_message": "dev", "actions": [{"action": "create", "file_path": "dev.txt", "content": "d"}]}
    expect_error(glexc.GitlabCreateError, 403, lambda: as_developer.commits.create(commit), "a Developer's commit to a protected branch", "not allowed to push")
    project.protectedbranches.delete("main")
    expect_error(glexc.GitlabGetError, 404, lambda: project.protectedbranches.get("main"), "an unprotected branch")
    expect_equal(as_developer.commits.create(commit).title, "dev", "the Developer's commit once main is unprotected")
    expect_equal(project.branches.get("main").protected, False, "branches.get().protected follows the records")


@scenario
def protected_tags_create_get_delete(ctx):
    gl = ctx["gl"]
    project, as_developer = with_developer(gl, "py-ptags")
    created = project.protectedtags.create({"name": "v*", "create_access_level": 40})
    expect_equal((created.name, created.create_access_levels[0]["access_level"]), ("v*", 40), "protectedtags.create()")
    expect_equal(project.protectedtags.get("v*").name, "v*", "protectedtags.get() of a wildcard")
    expect_equal([t.name for t in project.protectedtags.list(get_all=True)], ["v*"], "protectedtags.list()")
    expect_error(glexc.GitlabCreateError, 400, lambda: as_developer.tags.create({"tag_name": "v1.0", "ref": "main"}), "a Developer's protected tag", "protected")
    expect_equal(project.tags.create({"tag_name": "v1.0", "ref": "main"}).protected, True, "a Maintainer's protected tag")
    project.protectedtags.delete("v*")
    expect_error(glexc.GitlabGetError, 404, lambda: project.protectedtags.get("v*"), "an unprotected tag")
    expect_equal(as_developer.tags.create({"tag_name": "v2.0", "ref": "main"}).name, "v2.0", "the Developer's tag once unprotected")
