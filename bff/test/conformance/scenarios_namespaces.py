"""python-gitlab scenarios: what configuration-as-code tools do before creating groups and
projects (look the parent namespace up, create under it), projects initialised with a README,
their languages, and settings under a former name."""

import base64

from gitlab import exceptions as glexc

from support import expect, expect_equal, expect_error, new_group, new_user, client, scenario, unique


@scenario
def namespace_looked_up_then_subgroup_and_project_created_under_it(ctx):
    gl = ctx["gl"]
    parent = new_group(gl)
    # As a configuration tool does: find the parent by its full path, check the child's path is free, create.
    ns = gl.namespaces.get(parent.full_path)
    expect_equal((ns.id, ns.kind, ns.full_path), (parent.id, "group", parent.full_path), "the namespace found by full path")
    expect_equal(gl.namespaces.get(parent.id).full_path, parent.full_path, "the namespace found by id")
    child_path = unique("team")
    free = gl.http_get(f"/namespaces/{child_path}/exists", query_data={"parent_id": ns.id})
    expect_equal(free, {"exists": False, "suggests": []}, "a free subgroup path")
    sub = gl.groups.create({"name": child_path, "path": child_path, "parent_id": ns.id})
    taken = gl.http_get(f"/namespaces/{child_path}/exists", query_data={"parent_id": ns.id})
    expect_equal(taken, {"exists": True, "suggests": [f"{child_path}1"]}, "the taken subgroup path")
    sub_ns = gl.namespaces.get(f"{parent.full_path}/{child_path}")
    expect_equal(sub_ns.parent_id, parent.id, "the subgroup's namespace")
    project = gl.projects.create({"name": unique("svc"), "namespace_id": sub_ns.id})
    expect_equal(project.namespace["full_path"], sub.full_path, "the project's namespace")
    listed = [p.id for p in gl.groups.get(parent.id).projects.list(include_subgroups=True, get_all=True)]
    expect_equal(listed, [project.id], "the parent's projects with include_subgroups")
    expect_equal(gl.groups.get(parent.id).projects.list(get_all=True), [], "the parent's own projects")
    expect_equal([g.id for g in gl.groups.get(parent.id).descendant_groups.list(get_all=True)], [sub.id], "the descendant groups")
    expect(any(n.id == sub.id for n in gl.namespaces.list(search=child_path, get_all=True)), "the namespace search finds the subgroup")
    expect_error(glexc.GitlabGetError, 404, lambda: gl.namespaces.get("no-such/namespace"), "an unknown namespace")
    _user, token = new_user(gl)
    expect_equal(client(token).namespaces.list(get_all=True), [], "a user without memberships has no namespaces")


@scenario
def project_initialized_with_readme_and_its_languages(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    name = unique("readme")
    project = gl.projects.create({"name": name, "namespace_id": group.id, "initialize_with_readme": True, "default_branch": "trunk"})
    expect_equal((project.default_branch, project.empty_repo), ("trunk", False), "the initialised project")
    readme = project.files.get("README.md", ref="trunk")
    expect_equal(base64.b64decode(readme.content).decode(), f"# {name}\n", "the README read back")
    expect_equal([c.title for c in project.commits.list(get_all=True)], ["Initial commit"], "the project's commits")
    expect_equal(project.languages(), {}, "a README alone has no language")
    project.commits.create(
        {
            "branch": "trunk",
            "commit_message": "code",
            "actions": [
                {"action": "create", "file_path": "main.py", "content": "x" * 300},
                {"action": "create", "file_path": "lib/tool.rb", "content": "y" * 100},
            ],
        }
    )
    expect_equal(project.languages(), {"Python": 75.0, "Ruby": 25.0}, "the project's languages")


@scenario
def settings_read_and_updated_under_a_former_name(ctx):
    gl = ctx["gl"]
    settings = gl.settings.get()
    expect_equal(
        settings.allow_local_requests_from_hooks_and_services,
        settings.allow_local_requests_from_web_hooks_and_services,
        "the former name beside the current one",
    )
    before = settings.allow_local_requests_from_web_hooks_and_services
    try:
        settings.allow_local_requests_from_hooks_and_services = not before
        settings.save()
        fresh = gl.settings.get()
        expect_equal(
            (fresh.allow_local_requests_from_web_hooks_and_services, fresh.allow_local_requests_from_hooks_and_services),
            (not before, not before),
            "the setting written under its former name",
        )
    finally:
        gl.settings.update(new_data={"allow_local_requests_from_web_hooks_and_services": before})
    expect_equal(gl.settings.get().default_project_visibility, "private", "the default project visibility")
