"""python-gitlab scenarios: push rules, custom attributes, application settings, hooks."""

import time
import uuid

from gitlab import exceptions as glexc

from support import ScenarioFailure, allow_local_hooks, client, expect, expect_equal, expect_error, new_group, new_group_with_project, new_user, scenario, unique


@scenario
def group_push_rules_create_edit_and_delete(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    expect_error(glexc.GitlabGetError, 404, lambda: group.pushrules.get(), "the push rule of a group that has none")
    rule = group.pushrules.create({"commit_message_regex": "^(feat|fix): ", "deny_delete_tag": True, "max_file_size": 50})
    expect_equal((rule.commit_message_regex, rule.deny_delete_tag, rule.max_file_size), ("^(feat|fix): ", True, 50), "the created push rule")
    expect_error(glexc.GitlabCreateError, 422, lambda: group.pushrules.create({"member_check": True}), "a second push rule")
    rule = group.pushrules.get()
    rule.member_check = True
    rule.branch_name_regex = "^(main|release/.+)$"
    rule.save()
    fresh = group.pushrules.get()
    expect_equal((fresh.member_check, fresh.branch_name_regex, fresh.commit_message_regex), (True, "^(main|release/.+)$", "^(feat|fix): "), "the push rule after save()")
    expect_error(glexc.GitlabUpdateError, 400, lambda: group.pushrules.update(new_data={"max_file_size": -1}), "a negative max_file_size")
    group.pushrules.delete()
    expect_error(glexc.GitlabGetError, 404, lambda: group.pushrules.get(), "the deleted push rule")



@scenario
def project_push_rules_create_edit_and_delete(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-pushrules")
    expect_no_project_push_rule(gl, project, "the push rule of a project that has none")
    rule = project.pushrules.create({"commit_message_regex": "^(feat|fix): ", "reject_non_dco_commits": True})
    expect_equal((rule.project_id, rule.commit_message_regex, rule.reject_non_dco_commits), (project.id, "^(feat|fix): ", True), "the created project push rule")
    expect_error(glexc.GitlabCreateError, 422, lambda: project.pushrules.create({"member_check": True}), "a second project push rule")
    rule = project.pushrules.get()
    rule.prevent_secrets = True
    rule.save()
    fresh = project.pushrules.get()
    expect_equal((fresh.prevent_secrets, fresh.commit_message_regex), (True, "^(feat|fix): "), "the project push rule after save()")
    project.pushrules.delete()
    expect_no_project_push_rule(gl, project, "the deleted project push rule")


@scenario
def project_push_rule_is_null_where_the_group_rule_is_404(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-norule")
    expect_error(glexc.GitlabGetError, 404, lambda: group.pushrules.get(), "the push rule of a group that has none")
    expect_no_project_push_rule(gl, project, "the push rule of a project whose group has none")
    group.pushrules.create({"commit_message_regex": "^group: "})
    later = gl.projects.create({"name": unique("py-norule-later"), "namespace_id": group.id})
    expect_equal(later.pushrules.get().commit_message_regex, "^group: ", "a later project's copy of its group's rule")
    expect_no_project_push_rule(gl, project, "the push rule of a project made before its group had one")


def expect_no_project_push_rule(gl, project, what):
    """
    A project without a push rule answers 200 with a JSON null, as the platform does: the raw
    call reads None, and python-gitlab's pushrules.get() fails to build an object of it with
    GitlabParsingError, which is what it does against the platform too.
    """
    expect_equal(gl.http_get(f"/projects/{project.id}/push_rule"), None, f"{what}: the raw answer")
    try:
        project.pushrules.get()
    except glexc.GitlabParsingError:
        return
    except glexc.GitlabError as e:
        raise ScenarioFailure(f"{what}: expected GitlabParsingError of a null answer, got {type(e).__name__} {e.response_code}: {e.error_message}")
    raise ScenarioFailure(f"{what}: expected GitlabParsingError of a null answer, but pushrules.get() built an object")

@scenario
def custom_attributes_of_users_groups_and_projects(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-attrs")
    user, _ = new_user(gl)
    value = uuid.uuid4().hex
    for owner, what in ((user, "user"), (group, "group"), (project, "project")):
        attr = owner.customattributes.set("location", "Antarctica")
        expect_equal((attr.key, attr.value), ("location", "Antarctica"), f"the {what}'s attribute set")
        owner.customattributes.set("location", value)
        owner.customattributes.set("role", "Developer")
        expect_equal(owner.customattributes.get("location").value, value, f"the {what}'s attribute updated")
        expect_equal(sorted((a.key, a.value) for a in owner.customattributes.list()), [("location", value), ("role", "Developer")], f"the {what}'s attributes")
    expect_equal([g.id for g in gl.groups.list(custom_attributes={"location": value})], [group.id], "groups filtered by custom attribute")
    expect_equal([u.id for u in gl.users.list(custom_attributes={"location": value})], [user.id], "users filtered by custom attribute")
    shown = gl.groups.get(group.id, with_custom_attributes=True).custom_attributes
    expect_equal(sorted(a["key"] for a in shown), ["location", "role"], "group detail with_custom_attributes=True")
    for owner, what in ((user, "user"), (group, "group"), (project, "project")):
        owner.customattributes.delete("role")
        expect_error(glexc.GitlabGetError, 404, lambda: owner.customattributes.get("role"), f"the {what}'s deleted attribute")
    _, token = new_user(gl)
    expect_error(glexc.GitlabListError, 403, lambda: client(token).users.get(user.id, lazy=True).customattributes.list(), "custom attributes read by a non-administrator")


@scenario
def application_settings_are_read_and_saved(ctx):
    gl = ctx["gl"]
    settings = gl.settings.get()
    before = settings.allow_local_requests_from_web_hooks_and_services
    settings.allow_local_requests_from_web_hooks_and_services = not before
    settings.save()
    expect_equal(gl.settings.get().allow_local_requests_from_web_hooks_and_services, not before, "the setting after save()")
    allow_local_hooks(gl)
    expect_equal(gl.settings.get().allow_local_requests_from_web_hooks_and_services, True, "local requests allowed again")


@scenario
def group_hooks_create_edit_test_and_deliver_events(ctx):
    gl, receiver = ctx["gl"], ctx["receiver"]
    allow_local_hooks(gl)
    group = new_group(gl)
    path = f"/group-{group.id}"
    hook = group.hooks.create({"url": receiver.url + path, "subgroup_events": True, "push_events": False, "token": "group-hook-secret"})
    expect_equal((hook.url, hook.subgroup_events, hook.push_events, hook.group_id), (receiver.url + path, True, False, group.id), "the created hook")
    expect(not hasattr(hook, "token"), "the hook's secret token is not shown")
    expect_equal([h.id for h in group.hooks.list()], [hook.id], "group.hooks.list()")
    hook.member_events = True
    hook.save()
    expect_equal(group.hooks.get(hook.id).member_events, True, "the hook after save()")
    result = gl.http_post(f"/groups/{group.id}/hooks/{hook.id}/test/subgroup_events")
    expect_equal(result, {"message": "201 Created"}, "the test delivery's outcome")
    sample = receiver.wait_for(path)[0]
    expect_equal(sample["headers"].get("X-Service-Token"), "group-hook-secret", "the secret token sent with the test")
    # Real events: a subgroup created and a member added through the SDK reach the receiver.
    gl.groups.create({"name": "Announced", "path": "announced", "parent_id": group.id})
    created = receiver.wait_for(path, lambda r: (r["json"] or {}).get("event_name") == "subgroup_create" and r["json"].get("full_path") == f"{group.full_path}/announced")
    expect_equal(created[0]["headers"].get("X-Service-Event"), "Subgroup Hook", "the subgroup event's header")
    user, _ = new_user(gl)
    group.members.create({"user_id": user.id, "access_level": 30})
    receiver.wait_for(path, lambda r: (r["json"] or {}).get("event_name") == "user_add_to_group" and r["json"].get("user_username") == user.username)
    # A delivery is logged when its job completes, a moment after the receiver has it: the log
    # is read until it lists the three (or for 10 s), as a client would refresh it.
    deadline = time.monotonic() + 10
    events = gl.http_get(f"/groups/{group.id}/hooks/{hook.id}/events")
    while len(events) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
        events = gl.http_get(f"/groups/{group.id}/hooks/{hook.id}/events")
    expect(len(events) >= 3, f"the delivery log lists the deliveries: {len(events)}")
    # Resending a logged delivery sends the same event again with its original Idempotency-Key.
    logged = next(e for e in events if e["request_headers"].get("X-Service-Event") == "Member Hook")
    resent = gl.http_post(f"/groups/{group.id}/hooks/{hook.id}/events/{logged['id']}/resend")
    expect_equal(resent["response_status"], 200, "the resend's outcome")
    keys = [r["headers"].get("Idempotency-Key") for r in receiver.on(path) if (r["json"] or {}).get("event_name") == "user_add_to_group"]
    expect_equal(keys, [logged["request_headers"]["Idempotency-Key"]] * 2, "the resent delivery's Idempotency-Key")
    group.hooks.delete(hook.id)
    expect_error(glexc.GitlabGetError, 404, lambda: group.hooks.get(hook.id), "a deleted hook")


@scenario
def project_hooks_create_edit_test_and_delete(ctx):
    gl, receiver = ctx["gl"], ctx["receiver"]
    allow_local_hooks(gl)
    group, project = new_group_with_project(gl, "py-hooked")
    path = f"/project-{project.id}"
    hook = project.hooks.create({"url": receiver.url + path, "push_events": True, "issues_events": False, "enable_ssl_verification": False})
    expect_equal((hook.project_id, hook.push_events, hook.issues_events), (project.id, True, False), "the created project hook")
    hook.issues_events = True
    hook.push_events_branch_filter = "main"
    hook.save()
    fresh = project.hooks.get(hook.id)
    expect_equal((fresh.issues_events, fresh.push_events_branch_filter), (True, "main"), "the project hook after save()")
    result = gl.http_post(f"/projects/{project.id}/hooks/{hook.id}/test/push_events")
    expect_equal(result, {"message": "201 Created"}, "the test delivery's outcome")
    delivered = receiver.wait_for(path)[0]
    expect_equal((delivered["json"] or {}).get("object_kind"), "push", "the sample push event")
    expect_error(glexc.GitlabHttpError, 400, lambda: gl.http_post(f"/projects/{project.id}/hooks/{hook.id}/test/subgroup_events"), "a trigger projects do not have", "trigger")
    expect_error(glexc.GitlabCreateError, 422, lambda: project.hooks.create({"url": "ftp://example.com/hook"}), "a non-http URL")
    project.hooks.delete(hook.id)
    expect_equal(project.hooks.list(), [], "no project hooks after deletion")


@scenario
def hook_test_refused_by_the_receiver_is_an_error(ctx):
    # The platform answers a hook test whose receiver did not answer 2xx with 422 (and the
    # response as the message), so scripts see the failure as an error.
    gl, receiver = ctx["gl"], ctx["receiver"]
    allow_local_hooks(gl)
    group, project = new_group_with_project(gl, "py-refused")
    for owner, base in ((group, f"/groups/{group.id}"), (project, f"/projects/{project.id}")):
        path = f"/status/500/{base.strip('/').replace('/', '-')}"
        hook = owner.hooks.create({"url": receiver.url + path, "push_events": True})
        expect_error(glexc.GitlabHttpError, 422, lambda: gl.http_post(f"{base}/hooks/{hook.id}/test/push_events"), f"a test refused with 500 ({base})")
        expect_equal(len(receiver.on(path)), 1, f"the refused test was delivered once ({base})")


@scenario
def scim_identities_list_update_and_delete(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    made = gl.http_post(f"/groups/{group.id}/scim/token")
    # The identity provider's side: SCIM provisioning with the group's SCIM token.
    name = unique("scim").replace("-", "")
    provisioned = gl.session.post(
        f"{made['scim_api_url']}/Users",
        headers={"Authorization": f"Bearer {made['token']}"},
        json={
            "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
            "externalId": f"ext-{name}",
            "userName": name,
            "active": True,
            "name": {"givenName": name, "familyName": "Doe"},
            "emails": [{"value": f"{name}@corp.example", "primary": True, "type": "work"}],
        },
    )
    expect_equal(provisioned.status_code, 201, f"SCIM provisioning: {provisioned.text}")
    identities = gl.http_get(f"/groups/{group.id}/scim/identities")
    expect_equal([(i["extern_uid"], i["active"]) for i in identities], [(f"ext-{name}", True)], "the group's SCIM identities")
    expect_equal(gl.http_get(f"/groups/{group.id}/scim/ext-{name}")["extern_uid"], f"ext-{name}", "one identity by its external UID")
    gl.http_request("patch", f"/groups/{group.id}/scim/ext-{name}", post_data={"extern_uid": f"new-{name}"})
    expect_equal(gl.http_get(f"/groups/{group.id}/scim/new-{name}")["extern_uid"], f"new-{name}", "the identity under its new external UID")
    gl.http_delete(f"/groups/{group.id}/scim/new-{name}")
    expect_equal(gl.http_get(f"/groups/{group.id}/scim/identities"), [], "no identities after deletion")
