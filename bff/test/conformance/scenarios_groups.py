"""python-gitlab scenarios: authentication, groups and subgroups, projects, members, pagination."""

import base64

import gitlab
from gitlab import exceptions as glexc

from support import ADMIN_TOKEN, URL, ScenarioFailure, client, expect, expect_equal, expect_error, in_days, new_group, new_group_with_project, new_user, scenario, unique


@scenario
def authenticates_and_reads_the_current_user(ctx):
    gl = ctx["gl"]
    expect_equal(gl.user.username, "root", "gl.user after gl.auth()")
    expect_equal(gl.user.is_admin, True, "the administrator's is_admin")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client("not-a-token").auth(), "a wrong token")
    anonymous = gitlab.Gitlab(URL)
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: anonymous.groups.create({"name": "x", "path": unique("anon")}), "an anonymous write")
    public = new_group(gl, visibility="public")
    private = new_group(gl, visibility="private")
    seen = {g.id for g in anonymous.groups.list(search=public.path, get_all=True)} | {g.id for g in anonymous.groups.list(search=private.path, get_all=True)}
    expect_equal(seen, {public.id}, "an anonymous client lists public groups only")
    expect_equal(anonymous.groups.get(public.full_path).id, public.id, "an anonymous client reads a public group")
    expect_error(glexc.GitlabGetError, 404, lambda: anonymous.groups.get(private.id), "an anonymous client and a private group")


@scenario
def json_answers_carry_exactly_application_json(ctx):
    gl = ctx["gl"]
    ok = gl.http_request("get", "/user")
    expect_equal(ok.headers.get("Content-Type"), "application/json", "Content-Type of GET /user")
    try:
        gl.http_request("get", "/groups/999999999")
        raise ScenarioFailure("GET of an unknown group succeeded")
    except glexc.GitlabHttpError as e:
        expect_equal(e.response_code, 404, "unknown group")
        expect_equal(e.error_message, "404 Group Not Found", "the 404 body's message, read as JSON")
    # Errors too, unknown routes included: python-gitlab reads a body only when the header is exact.
    for path, body in (("/groups/999999999", {"message": "404 Group Not Found"}), ("/no/such/route", {"error": "404 Not Found"})):
        raw = gl.session.get(f"{gl.api_url}{path}", headers={"PRIVATE-TOKEN": ADMIN_TOKEN})
        expect_equal((raw.status_code, raw.headers.get("Content-Type"), raw.json()), (404, "application/json", body), f"GET {path}")


@scenario
def groups_create_and_get_by_id_and_full_path(ctx):
    gl = ctx["gl"]
    path = unique("py-created")
    group = gl.groups.create({"name": "Created by python-gitlab", "path": path, "description": "made in a test", "visibility": "private"})
    expect_equal(group.path, path, "path of the created group")
    expect_equal(group.full_path, path, "full_path of a top-level group")
    expect_equal(group.parent_id, None, "parent_id of a top-level group")
    by_id = gl.groups.get(group.id)
    by_path = gl.groups.get(path)
    for found, how in ((by_id, "by id"), (by_path, "by full path")):
        expect_equal(found.id, group.id, f"id of the group got {how}")
        expect_equal(found.name, "Created by python-gitlab", f"name {how}")
        expect_equal(found.description, "made in a test", f"description {how}")
        expect_equal(found.visibility, "private", f"visibility {how}")
        expect(found.web_url.endswith(f"/groups/{path}"), f"web_url {how}: {found.web_url}")
    expect_equal(gl.groups.get(group.id, with_projects=False).id, group.id, "get with a boolean query parameter")


@scenario
def groups_edit_with_save_and_update(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    group.name = "Renamed by save()"
    group.description = "edited"
    group.request_access_enabled = False
    group.save()
    fresh = gl.groups.get(group.id)
    expect_equal(fresh.name, "Renamed by save()", "name after save()")
    expect_equal(fresh.description, "edited", "description after save()")
    expect_equal(fresh.request_access_enabled, False, "request_access_enabled after save()")
    new_path = unique("py-moved")
    gl.groups.update(group.id, {"path": new_path})
    expect_equal(gl.groups.get(new_path).id, group.id, "the group under its new path")
    expect_error(glexc.GitlabGetError, 404, lambda: gl.groups.get(group.path), "the old path")


@scenario
def groups_list_with_search_and_boolean_filters(ctx):
    gl = ctx["gl"]
    tag = unique("py-search")
    first = new_group(gl, path=f"{tag}-a")
    second = new_group(gl, path=f"{tag}-b")
    child = gl.groups.create({"name": f"{tag} child", "path": f"{tag}-child", "parent_id": first.id})
    new_group(gl)  # another group, which the search must not find
    found = gl.groups.list(search=tag, get_all=True)
    expect_equal(sorted(g.full_path for g in found), sorted([first.full_path, second.full_path, child.full_path]), "groups found by search")
    # python-gitlab writes booleans in query strings as True/False, as the platform accepts them.
    top = gl.groups.list(search=tag, top_level_only=True, get_all=True)
    expect_equal(sorted(g.id for g in top), sorted([first.id, second.id]), "top_level_only=True")
    owned = gl.groups.list(search=tag, owned=True, all_available=False, get_all=True)
    expect_equal(len(owned), 3, "owned=True finds the groups the administrator created")
    by_id = gl.groups.list(search=tag, order_by="id", sort="desc", get_all=True)
    expect_equal([g.id for g in by_id], sorted([first.id, second.id, child.id], reverse=True), "order_by=id sort=desc")
    skipped = gl.groups.list(search=tag, skip_groups=[second.id], get_all=True)
    expect(second.id not in [g.id for g in skipped] and first.id in [g.id for g in skipped], "skip_groups=[id] (sent as skip_groups[]=id)")
    stats = gl.groups.list(search=tag, statistics=True, get_all=True)
    expect(all(hasattr(g, "statistics") for g in stats), "statistics=True adds statistics for an administrator")


@scenario
def groups_search_matches_full_paths(ctx):
    # The platform searches groups by their full path and full name (GET /groups: search with
    # include_parents), so a subgroup is found by its parent's name.
    gl = ctx["gl"]
    parent = new_group(gl)
    child = gl.groups.create({"name": "Plain", "path": "plain", "parent_id": parent.id})
    found = gl.groups.list(search=parent.path, get_all=True)
    expect_equal(sorted(g.id for g in found), sorted([parent.id, child.id]), "groups found by their parent's path")


@scenario
def subgroups_are_created_listed_and_found_by_full_path(ctx):
    gl = ctx["gl"]
    parent = new_group(gl)
    a = gl.groups.create({"name": "Alpha", "path": "alpha", "parent_id": parent.id})
    b = gl.groups.create({"name": "Beta", "path": "beta", "parent_id": parent.id})
    grandchild = gl.groups.create({"name": "Gamma", "path": "gamma", "parent_id": a.id})
    expect_equal(a.full_path, f"{parent.full_path}/alpha", "full_path of a subgroup")
    expect_equal(a.parent_id, parent.id, "parent_id of a subgroup")
    listed = parent.subgroups.list(get_all=True)
    expect_equal(sorted(s.full_path for s in listed), [f"{parent.full_path}/alpha", f"{parent.full_path}/beta"], "parent.subgroups.list()")
    expect_equal(gl.groups.get(f"{parent.full_path}/alpha/gamma").id, grandchild.id, "a grandchild got by its full path")
    expect_equal(gl.groups.get(f"{parent.full_path}/beta").name, b.name, "a subgroup got by its full path")


@scenario
def groups_delete_and_errors(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    sub = gl.groups.create({"name": "Doomed", "path": "doomed", "parent_id": group.id})
    expect_error(glexc.GitlabCreateError, 400, lambda: gl.groups.create({"name": "Again", "path": group.path}), "a taken path", "has already been taken")
    expect_error(glexc.GitlabHttpError, 400, lambda: gl.http_post("/groups", post_data={"name": "No path"}), "a group without a path", "path")
    expect_error(glexc.GitlabGetError, 404, lambda: gl.groups.get(2_000_000_000), "an unknown id", "404 Group Not Found")
    sub.delete()
    expect_error(glexc.GitlabGetError, 404, lambda: gl.groups.get(sub.id), "a deleted subgroup")
    gl.groups.delete(group.id)
    expect_error(glexc.GitlabGetError, 404, lambda: gl.groups.get(group.full_path), "a deleted group, by path")
    expect_error(glexc.GitlabDeleteError, 404, lambda: gl.groups.delete(group.id), "deleting it twice")


# A 1×1 PNG.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


@scenario
def group_avatar_upload_download_and_remove(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    group.avatar = PNG  # python-gitlab sends PUT /groups/:id as multipart with the file
    group.save()
    fresh = gl.groups.get(group.id)
    expect(fresh.avatar_url, "the group has an avatar_url after the upload")
    got = gl.http_get(f"/groups/{group.id}/avatar", raw=True)
    expect_equal((got.status_code, got.headers.get("Content-Type"), got.content), (200, "image/png", PNG), "the avatar downloaded")
    # Removing it is a blank avatar (through http_put: python-gitlab 3.12 would send "" as an empty file).
    gl.http_put(f"/groups/{group.id}", post_data={"avatar": ""})
    expect_equal(gl.groups.get(group.id).avatar_url, None, "avatar_url after removing the avatar")
    expect_error(glexc.GitlabHttpError, 404, lambda: gl.http_get(f"/groups/{group.id}/avatar", raw=True), "the removed avatar")


@scenario
def projects_create_get_list_and_delete(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    name = unique("py-project")
    project = gl.projects.create({"name": name, "namespace_id": group.id, "description": "a project", "visibility": "private"})
    expect_equal(project.path_with_namespace, f"{group.full_path}/{name}", "path_with_namespace")
    expect_equal(project.namespace["id"], group.id, "namespace of the project")
    expect_equal(gl.projects.get(project.id).name, name, "project by id")
    expect_equal(gl.projects.get(f"{group.full_path}/{name}").id, project.id, "project by full path")
    found = gl.projects.list(search=name, get_all=True)
    expect_equal([p.id for p in found], [project.id], "projects found by search")
    # Group.projects is python-gitlab's manager; the detail's own list is in its attributes.
    expect_equal([p["id"] for p in gl.groups.get(group.id).attributes["projects"]], [project.id], "the group's projects in its detail")
    expect_error(glexc.GitlabCreateError, 400, lambda: gl.projects.create({"name": name, "namespace_id": group.id}), "a taken project name")
    project.delete()
    expect_error(glexc.GitlabGetError, 404, lambda: gl.projects.get(project.id), "a deleted project")


@scenario
def group_members_add_edit_list_and_remove(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    sub = gl.groups.create({"name": "Sub", "path": "sub", "parent_id": group.id})
    user, token = new_user(gl)
    expect_error(glexc.GitlabGetError, 404, lambda: client(token).groups.get(group.id), "a private group before membership")
    member = group.members.create({"user_id": user.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
    expect_equal((member.username, member.access_level), (user.username, 30), "the added member")
    expect_equal(client(token).groups.get(group.id).id, group.id, "the member sees the group")
    member.access_level = gitlab.const.MAINTAINER_ACCESS
    member.expires_at = in_days(60)
    member.save()
    got = group.members.get(user.id)
    expect_equal((got.access_level, got.expires_at), (40, in_days(60)), "the member after save()")
    expect_equal(sorted(m.username for m in group.members.list(get_all=True)), sorted(["root", user.username]), "direct members")
    expect_equal([m.username for m in group.members.list(query=user.username)], [user.username], "members.list(query=)")
    expect_equal([m.id for m in group.members.list(user_ids=[user.id])], [user.id], "members.list(user_ids=[...])")
    # As on the platform, the creator of a subgroup is its direct Owner.
    expect_equal([(m.username, m.access_level) for m in sub.members.list(get_all=True)], [("root", 50)], "the subgroup's direct members")
    inherited = sub.members_all.list(get_all=True)
    expect(user.id in [m.id for m in inherited], "members_all of the subgroup includes the inherited member")
    expect_equal(sub.members_all.get(user.id).access_level, 40, "members_all.get of an inherited member")
    expect_error(glexc.GitlabCreateError, 409, lambda: group.members.create({"user_id": user.id, "access_level": 30}), "adding the member twice")
    group.members.delete(user.id)
    expect_error(glexc.GitlabGetError, 404, lambda: group.members.get(user.id), "a removed member")
    expect_error(glexc.GitlabGetError, 404, lambda: client(token).groups.get(group.id), "the group after removal")


@scenario
def project_members_add_edit_list_and_remove(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-members")
    user, token = new_user(gl)
    member = project.members.create({"user_id": user.id, "access_level": gitlab.const.REPORTER_ACCESS})
    expect_equal(member.access_level, 20, "the added project member")
    expect_equal(client(token).projects.get(project.id).id, project.id, "the member sees the project")
    member.access_level = gitlab.const.DEVELOPER_ACCESS
    member.save()
    expect_equal(project.members.get(user.id).access_level, 30, "the project member after save()")
    expect_equal([m.username for m in project.members.list(get_all=True)], [user.username], "direct project members")
    expect(user.id in [m.id for m in project.members_all.list(get_all=True)], "members_all of the project")
    project.members.delete(user.id)
    expect_equal(project.members.list(get_all=True), [], "no project members after removal")


@scenario
def invitations_by_email_list_save_delete_and_acceptance(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-invites")
    existing, _ = new_user(gl)
    a, b = unique("ana") + "@invited.example", unique("ben") + "@invited.example"
    done = group.invitations.create({"email": [a, b], "access_level": gitlab.const.DEVELOPER_ACCESS})
    expect_equal(done.status, "success", "two addresses invited at once")
    expect_equal(sorted(i.invite_email for i in group.invitations.list(get_all=True)), sorted([a, b]), "the group's pending invitations")
    expect_equal([i.invite_email for i in group.invitations.list(query=a)], [a], "invitations.list(query=)")
    expect(a not in [m.username for m in group.members.list(get_all=True)], "an invitation is not a member")
    try:
        group.invitations.create({"email": a, "access_level": 30})
        raise ScenarioFailure("inviting the same address twice did not raise GitlabInvitationError")
    except glexc.GitlabInvitationError as e:
        expect(a in str(e), f"the error names the address: {e}")
    # The platform's entity has no `email` (python-gitlab's id attribute), so save() has no address to
    # PUT to there either: update() by the address is how a client changes an invitation.
    group.invitations.update(b, {"access_level": gitlab.const.MAINTAINER_ACCESS})
    expect_equal(group.invitations.list(query=b)[0].access_level, 40, "the invitation after update()")
    group.invitations.delete(b)
    expect_equal([i.invite_email for i in group.invitations.list(get_all=True)], [a], "after invitations.delete(email)")
    expect_error(glexc.GitlabDeleteError, 404, lambda: group.invitations.delete(b), "deleting a withdrawn invitation")
    project.invitations.create({"user_id": existing.id, "access_level": gitlab.const.REPORTER_ACCESS})
    expect_equal(project.members.get(existing.id).access_level, 20, "a user invited by id is a member at once")
    user = gl.users.create({"username": unique("py_ana").replace("-", "_"), "name": "Ana", "email": a, "password": f"pw-{unique('x')}"})
    expect_equal(group.members.get(user.id).access_level, 30, "the invitation became a membership when the user was created")
    expect_equal(group.invitations.list(get_all=True), [], "no pending invitation left")


@scenario
def offset_pagination_with_iterators(ctx):
    gl = ctx["gl"]
    parent = new_group(gl)
    children = [gl.groups.create({"name": f"Page {i}", "path": f"page-{i}", "parent_id": parent.id}) for i in range(7)]
    expected = [c.id for c in sorted(children, key=lambda c: c.name)]
    pages = parent.subgroups.list(iterator=True, per_page=3)
    expect_equal((pages.total, pages.total_pages, pages.per_page, pages.current_page, pages.next_page), (7, 3, 3, 1, 2), "the iterator's pagination headers")
    expect_equal([g.id for g in pages], expected, "every subgroup, across three pages, in order")
    expect_equal([g.id for g in parent.subgroups.list(get_all=True, per_page=3)], expected, "list(get_all=True)")
    expect_equal([g.id for g in parent.subgroups.list(all=True, per_page=2)], expected, "list(all=True)")
    expect_equal([g.id for g in parent.subgroups.list(page=3, per_page=3)], expected[6:], "list(page=3)")
    expect_equal(len(parent.subgroups.list(per_page=3)), 3, "list() without get_all gives one page")
    expect_equal([g.id for g in parent.subgroups.list(page=9, per_page=3)], [], "a page past the end")
    user, _ = new_user(gl)
    parent.members.create({"user_id": user.id, "access_level": 10})
    members = parent.members.list(iterator=True, per_page=1)
    expect_equal((members.total, [m.id for m in members][-1:]), (2, [user.id]), "members across pages")


@scenario
def keyset_pagination_with_iterators(ctx):
    gl = ctx["gl"]
    tag = unique("py-keyset")
    made = [new_group(gl, path=f"{tag}-{c}", name=f"{tag} {c}") for c in "edcba"]
    pages = gl.groups.list(iterator=True, pagination="keyset", order_by="name", sort="asc", per_page=2, search=tag)
    expect_equal([g.path for g in pages], sorted(g.path for g in made), "every group, by keyset, in name order")
    backwards = gl.groups.list(get_all=True, pagination="keyset", order_by="name", sort="desc", per_page=2, search=tag)
    expect_equal([g.path for g in backwards], sorted((g.path for g in made), reverse=True), "keyset pages in descending order")
