"""python-gitlab scenarios: the platform framework's wire rules, as scripting clients lean on them.
Booleans sent as JSON 1/0 (Perl clients), lists of hashes in Rack's form style (the Ruby client's
`actions[][action]=…`, sent here through python-gitlab's own HTTP session), and `sudo=`."""

from gitlab import exceptions as glexc

from support import allow_local_hooks, client, expect, expect_equal, expect_error, in_days, new_group_with_project, new_user, scenario, unique


@scenario
def wire_booleans_as_numbers(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-wire-bool")
    allow_local_hooks(gl)
    hook = project.hooks.create({"url": f"{ctx['receiver'].url}/wire-bool", "push_events": 0, "issues_events": 1, "enable_ssl_verification": 0})
    expect_equal((hook.push_events, hook.issues_events, hook.enable_ssl_verification), (False, True, False), "hooks.create() with 1/0")
    hook.push_events = 1
    hook.issues_events = "no"
    hook.save()
    got = project.hooks.get(hook.id)
    expect_equal((got.push_events, got.issues_events), (True, False), "hook.save() with 1 and 'no'")
    expect_error(glexc.GitlabCreateError, 400, lambda: project.hooks.create({"url": f"{ctx['receiver'].url}/x", "push_events": 2}), "a boolean of 2", "push_events")


def form_post(gl, path, pairs):
    """A form body written pair by pair, as the Ruby and Perl clients write theirs, through the
    HTTP session python-gitlab holds (its token and all)."""
    response = gl.session.post(f"{gl.api_url}{path}", data=pairs, headers={"PRIVATE-TOKEN": gl.private_token})
    return response.status_code, response.json()


@scenario
def wire_lists_of_hashes_in_forms(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-wire-form")
    status, body = form_post(gl, f"/projects/{project.id}/repository/commits", [
        ("branch", "main"),
        ("commit_message", "from a form"),
        ("actions[][action]", "create"),
        ("actions[][file_path]", "one.txt"),
        ("actions[][content]", "1"),
        ("actions[][action]", "create"),
        ("actions[][file_path]", "two.txt"),
        ("actions[][content]", "2"),
    ])
    expect_equal(status, 201, f"POST commits with actions[][…] form fields: {body}")
    expect_equal(sorted(item["path"] for item in project.repository_tree(ref="main", get_all=True)), ["one.txt", "two.txt"], "both actions made")
    expect_equal(project.files.raw("two.txt", ref="main"), b"2", "the second action's content")
    status, body = form_post(gl, f"/projects/{project.id}/repository/commits", [
        ("branch", "main"),
        ("commit_message", "indexed"),
        ("actions[0][action]", "delete"),
        ("actions[0][file_path]", "one.txt"),
        ("actions[1][action]", "update"),
        ("actions[1][file_path]", "two.txt"),
        ("actions[1][content]", "22"),
    ])
    expect_equal(status, 201, f"POST commits with actions[0][…] form fields: {body}")
    expect_equal([item["path"] for item in project.repository_tree(ref="main", get_all=True)], ["two.txt"], "the indexed actions made")
    status, body = form_post(gl, f"/projects/{project.id}/snippets", [
        ("title", "form snippet"),
        ("visibility", "private"),
        ("files[][file_path]", "a.py"),
        ("files[][content]", "print(1)"),
        ("files[][file_path]", "b.py"),
        ("files[][content]", "print(2)"),
    ])
    expect_equal(status, 201, f"POST snippets with files[][…] form fields: {body}")
    expect_equal(sorted(f["path"] for f in project.snippets.get(body["id"]).files), ["a.py", "b.py"], "both snippet files")


def sudo_admin(gl):
    """An administrator with a token that carries the sudo scope."""
    username = unique("py-sudo-admin").replace("-", "_")
    user = gl.users.create({"username": username, "name": f"Admin {username}", "email": f"{username}@example.com", "password": f"pw-{username}", "admin": True})
    token = user.personal_access_tokens.create({"name": "sudo", "scopes": ["api", "sudo"], "expires_at": in_days(30)})
    expect_equal(sorted(token.scopes), ["api", "sudo"], "a personal access token with the sudo scope")
    return user, token.token


@scenario
def wire_sudo(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-wire-sudo")
    admin_user, admin_token = sudo_admin(gl)
    member, member_token = new_user(gl)
    project.members.create({"user_id": member.id, "access_level": 30})
    outsider, _ = new_user(gl)
    as_admin = client(admin_token)

    expect_equal(as_admin.http_get("/user", sudo=member.username)["id"], member.id, "GET /user with sudo=<username>")
    expect_equal(as_admin.http_get("/user", sudo=member.id)["id"], member.id, "GET /user with sudo=<id>")
    issue = as_admin.projects.get(project.id, lazy=True).issues.create({"title": "made as the member"}, sudo=member.username)
    expect_equal(issue.author["id"], member.id, "issues.create(sudo=) is the member's")
    expect_error(glexc.GitlabGetError, 404, lambda: as_admin.projects.get(project.id, sudo=outsider.username), "a project the sudo'd user cannot see")

    plain_admin = client(admin_user.personal_access_tokens.create({"name": "plain", "scopes": ["api"], "expires_at": in_days(30)}).token)
    error = expect_error(glexc.GitlabHttpError, 403, lambda: plain_admin.http_get("/user", sudo=member.username), "a token without the sudo scope")
    expect("insufficient_scope" in str(error.error_message), f"the scope error names insufficient_scope: {error.error_message!r}")
    expect_error(glexc.GitlabHttpError, 403, lambda: client(member_token).http_get("/user", sudo=outsider.username), "a non-administrator", "Must be admin to use sudo")
    expect_error(glexc.GitlabHttpError, 404, lambda: as_admin.http_get("/user", sudo="no-such-user-here"), "an unknown user", "User with ID or username 'no-such-user-here' Not Found")
    expect_equal(gl.projects.get(project.id).issues.get(issue.iid).author["username"], member.username, "the issue as others read it")


@scenario
def wire_sudo_scope_for_administrators_only(ctx):
    gl = ctx["gl"]
    user, _ = new_user(gl)
    expect_error(glexc.GitlabCreateError, 400, lambda: user.personal_access_tokens.create({"name": "no", "scopes": ["api", "sudo"], "expires_at": in_days(30)}),
                 "a sudo token for a non-administrator", "can only contain available scopes")
