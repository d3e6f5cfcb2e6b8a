"""Client conformance: python-gitlab drives a real Gatehouse server as its users would.

Run by bff/test/conformance-python.test.ts with Debian's python3 and python3-gitlab (3.12):

    GATEHOUSE_URL=http://127.0.0.1:PORT GATEHOUSE_TOKEN=<administrator token> \\
        /usr/bin/python3 bff/test/conformance/python_gitlab.py [scenario ...]

Every scenario is a small named function that builds what it needs (its own groups, users
and tokens) so that one failure does not hide the others. Each prints PASS or FAIL with the
reason; the last line is `RESULTS <json>` for the wrapper. Exit status 0 only when all pass.

Calls that python-gitlab 3.12 has no manager method for (getting or rotating a group access
token, triggering a hook test) go through `gl.http_get` / `gl.http_post`, as a user of that
version would write them.
"""

import datetime
import http.server
import json
import os
import sys
import threading
import time
import traceback
import uuid
import warnings

import gitlab
from gitlab import exceptions as glexc

URL = os.environ["GATEHOUSE_URL"]
ADMIN_TOKEN = os.environ["GATEHOUSE_TOKEN"]

# python-gitlab warns when list() is called without get_all/iterator; the scenarios that do
# so on purpose check the page they get.
warnings.simplefilter("ignore", UserWarning)


# ----------------------------------------------------------------------------- assertions
# Real checks, kept when Python runs with -O (which strips `assert` statements).


class ScenarioFailure(AssertionError):
    pass


def expect(condition, what):
    if not condition:
        raise ScenarioFailure(what)


def expect_equal(actual, expected, what):
    if actual != expected:
        raise ScenarioFailure(f"{what}: expected {expected!r}, got {actual!r}")


def expect_error(error_class, status, fn, what, message_contains=None):
    """Calls fn and expects python-gitlab to raise error_class with this HTTP status."""
    try:
        fn()
    except error_class as e:
        expect_equal(e.response_code, status, f"{what}: status")
        if message_contains is not None:
            expect(message_contains in str(e.error_message), f"{what}: message {e.error_message!r} lacks {message_contains!r}")
        return e
    except glexc.GitlabError as e:
        raise ScenarioFailure(f"{what}: expected {error_class.__name__} {status}, got {type(e).__name__} {e.response_code}: {e.error_message}")
    raise ScenarioFailure(f"{what}: expected {error_class.__name__} {status}, but the call succeeded")


# ----------------------------------------------------------------------------- helpers

_seq = [0]


def unique(prefix):
    _seq[0] += 1
    return f"{prefix}-{os.getpid()}-{_seq[0]}-{uuid.uuid4().hex[:6]}"


def admin():
    gl = gitlab.Gitlab(URL, private_token=ADMIN_TOKEN)
    gl.auth()
    return gl


def client(token):
    return gitlab.Gitlab(URL, private_token=token)


def in_days(days):
    return (datetime.date.today() + datetime.timedelta(days=days)).isoformat()


def new_group(gl, **attrs):
    path = attrs.pop("path", None) or unique("py-group")
    return gl.groups.create({"name": attrs.pop("name", f"Group {path}"), "path": path, **attrs})


def new_user(gl, scopes=("api",)):
    username = unique("py-user").replace("-", "_")
    user = gl.users.create(
        {"username": username, "name": f"User {username}", "email": f"{username}@example.com", "password": f"pw-{uuid.uuid4().hex}"}
    )
    token = user.personal_access_tokens.create({"name": "conformance", "scopes": list(scopes), "expires_at": in_days(30)})
    return user, token.token


def allow_local_hooks(gl):
    settings = gl.settings.get()
    settings.allow_local_requests_from_web_hooks_and_services = True
    settings.save()


class Receiver:
    """A real HTTP receiver on 127.0.0.1 for webhook deliveries: records what arrives, answers 200."""

    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8")
                try:
                    parsed = json.loads(body)
                except ValueError:
                    parsed = None
                with receiver.lock:
                    receiver.requests.append({"path": self.path, "headers": dict(self.headers), "json": parsed})
                out = b'{"ok":true}'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def on(self, path):
        with self.lock:
            return [r for r in self.requests if r["path"] == path]

    def wait_for(self, path, predicate=lambda r: True, timeout=10.0):
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            found = [r for r in self.on(path) if predicate(r)]
            if found:
                return found
            time.sleep(0.05)
        raise ScenarioFailure(f"no delivery to {path} matching the expectation within {timeout}s; got {self.on(path)!r}")

    def close(self):
        self.server.shutdown()
        self.server.server_close()


# ----------------------------------------------------------------------------- scenarios

SCENARIOS = []


def scenario(fn):
    SCENARIOS.append(fn)
    return fn


@scenario
def authenticates_and_reads_the_current_user(ctx):
    gl = ctx["gl"]
    expect_equal(gl.user.username, "root", "gl.user after gl.auth()")
    expect_equal(gl.user.is_admin, True, "the administrator's is_admin")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client("not-a-token").auth(), "a wrong token")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: gitlab.Gitlab(URL).groups.create({"name": "x", "path": unique("anon")}), "an anonymous write")


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
def users_create_get_and_list(ctx):
    gl = ctx["gl"]
    user, _ = new_user(gl)
    expect_equal(gl.users.get(user.id).username, user.username, "user by id")
    expect_equal([u.id for u in gl.users.list(username=user.username)], [user.id], "users.list(username=)")
    expect_equal([u.id for u in gl.users.list(search=user.username, get_all=True)], [user.id], "users.list(search=)")
    expect(user.id in [u.id for u in gl.users.list(active=True, search=user.username)], "users.list(active=True)")
    expect_error(glexc.GitlabCreateError, 409, lambda: gl.users.create({"username": user.username, "name": "Twin", "email": f"{uuid.uuid4().hex}@example.com", "password": "long-enough-pw"}), "a taken username")
    expect_error(glexc.GitlabGetError, 404, lambda: gl.users.get(2_000_000_000), "an unknown user")


@scenario
def personal_access_tokens_authenticate_list_and_revoke(ctx):
    gl = ctx["gl"]
    user, _ = new_user(gl)
    api = user.personal_access_tokens.create({"name": "writer", "scopes": ["api"], "expires_at": in_days(10)})
    read_only = user.personal_access_tokens.create({"name": "reader", "scopes": ["read_api"], "expires_at": in_days(10)})
    expect_equal(api.scopes, ["api"], "scopes of the created token")
    expect_equal(api.expires_at, in_days(10), "expires_at of the created token")
    as_user = client(api.token)
    as_user.auth()
    expect_equal(as_user.user.username, user.username, "the token authenticates its user")
    expect_equal(as_user.http_get("/personal_access_tokens/self")["name"], "writer", "GET /personal_access_tokens/self")
    reader = client(read_only.token)
    reader.auth()
    expect_error(glexc.GitlabCreateError, 403, lambda: reader.groups.create({"name": "x", "path": unique("ro")}), "a write with a read_api token")
    listed = gl.personal_access_tokens.list(user_id=user.id, get_all=True)
    expect({"writer", "reader"} <= {t.name for t in listed}, f"tokens listed for the user: {[t.name for t in listed]}")
    gl.personal_access_tokens.delete(api.id)
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(api.token).auth(), "a revoked token")
    revoked = [t for t in gl.personal_access_tokens.list(user_id=user.id, get_all=True) if t.id == api.id]
    expect_equal([(t.revoked, t.active) for t in revoked], [(True, False)], "the revoked token in the list")
    # Any token may revoke itself, whatever its scopes.
    reader.personal_access_tokens.delete("self")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(read_only.token).auth(), "a token that revoked itself")


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
    group = new_group(gl)
    project = gl.projects.create({"name": unique("py-members"), "namespace_id": group.id})
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
def group_access_tokens_create_get_list_and_authenticate(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    token = group.access_tokens.create({"name": "ci-bot", "scopes": ["api", "read_api"], "access_level": 30, "expires_at": in_days(30)})
    expect(token.token, "the plaintext is returned on creation")
    expect_equal((token.name, token.scopes, token.access_level, token.expires_at), ("ci-bot", ["api", "read_api"], 30, in_days(30)), "the created token")
    expect_equal((token.active, token.revoked), (True, False), "a new token is active")
    got = gl.http_get(f"/groups/{group.id}/access_tokens/{token.id}")
    expect_equal(got["name"], "ci-bot", "GET /groups/:id/access_tokens/:token_id")
    expect("token" not in got, "the plaintext is not shown again")
    listed = group.access_tokens.list(get_all=True)
    expect_equal([t.id for t in listed], [token.id], "group.access_tokens.list()")
    expect_equal([t.id for t in group.access_tokens.list(state="active")], [token.id], "list(state='active')")
    expect_equal(group.access_tokens.list(revoked=True), [], "list(revoked=True) before any revocation")
    bot = client(token.token)
    bot.auth()
    expect_equal(bot.user.bot, True, "the token authenticates its bot user")
    expect_equal(bot.groups.get(group.id).id, group.id, "the bot reads its group")
    expect_error(glexc.GitlabCreateError, 400, lambda: group.access_tokens.create({"name": "too-long", "scopes": ["api"], "expires_at": in_days(3650)}), "an expiry beyond the maximum lifetime")


@scenario
def group_access_tokens_rotate_and_detect_reuse(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    token = group.access_tokens.create({"name": "rotating", "scopes": ["api"], "access_level": 40, "expires_at": in_days(30)})
    rotated = gl.http_post(f"/groups/{group.id}/access_tokens/{token.id}/rotate", post_data={"expires_at": in_days(20)})
    expect(rotated["id"] != token.id and rotated["token"] != token.token, "rotation gives a new token")
    expect_equal((rotated["name"], rotated["expires_at"], rotated["active"]), ("rotating", in_days(20), True), "the rotated token")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(token.token).auth(), "the old token after rotation")
    fresh = client(rotated["token"])
    fresh.auth()
    expect_equal(fresh.groups.get(group.id).id, group.id, "the new token works as a credential")
    # A group access token rotates itself with the keyword self.
    again = fresh.http_post(f"/groups/{group.id}/access_tokens/self/rotate")
    expect(again["token"] not in (token.token, rotated["token"]), "self rotation gives a new token")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(rotated["token"]).auth(), "the self-rotated token")
    client(again["token"]).auth()
    # Rotating a token that was already rotated is reuse: the whole family is revoked.
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: gl.http_post(f"/groups/{group.id}/access_tokens/{token.id}/rotate"), "rotating a revoked token")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(again["token"]).auth(), "the family's live token after reuse")
    expect_equal(group.access_tokens.list(state="active"), [], "no active token is left")


@scenario
def group_access_tokens_revoke(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    token = group.access_tokens.create({"name": "short-lived", "scopes": ["read_api"], "expires_at": in_days(5)})
    client(token.token).auth()
    group.access_tokens.delete(token.id)
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(token.token).auth(), "a revoked group access token")
    revoked = group.access_tokens.list(revoked=True)
    expect_equal([(t.id, t.revoked, t.active) for t in revoked], [(token.id, True, False)], "list(revoked=True)")
    expect_error(glexc.GitlabDeleteError, 400, lambda: group.access_tokens.delete(token.id), "revoking it twice")
    expect_error(glexc.GitlabDeleteError, 404, lambda: group.access_tokens.delete(2_000_000_000), "an unknown token")


@scenario
def deploy_tokens_create_get_list_and_revoke(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    token = group.deploytokens.create({"name": "deployer", "scopes": ["read_repository", "read_registry"], "username": "deploy-bot", "expires_at": in_days(30)})
    expect(token.token, "the plaintext is returned on creation")
    expect_equal((token.username, sorted(token.scopes)), ("deploy-bot", ["read_registry", "read_repository"]), "the created deploy token")
    expect(str(token.expires_at).startswith(in_days(30)), f"expires_at {token.expires_at}")
    got = group.deploytokens.get(token.id)
    expect_equal((got.name, getattr(got, "token", None)), ("deployer", None), "the deploy token got again, without its plaintext")
    other = group.deploytokens.create({"name": "other", "scopes": ["read_package_registry"]})
    expect_equal(sorted(t.id for t in group.deploytokens.list(get_all=True)), sorted([token.id, other.id]), "deploytokens.list()")
    group.deploytokens.delete(other.id)
    active = group.deploytokens.list(active=True, get_all=True)
    expect_equal([t.id for t in active], [token.id], "deploytokens.list(active=True) after a revocation")
    listed = {t.id: t.revoked for t in group.deploytokens.list(get_all=True)}
    expect_equal(listed, {token.id: False, other.id: True}, "revoked flags in the list")
    expect_error(glexc.GitlabCreateError, 400, lambda: group.deploytokens.create({"name": "no-scopes", "scopes": []}), "a deploy token without scopes")


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
def custom_attributes_of_users_groups_and_projects(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    project = gl.projects.create({"name": unique("py-attrs"), "namespace_id": group.id})
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
    expect_equal(result["response_status"], 200, f"the test delivery's outcome: {result}")
    sample = receiver.wait_for(path)[0]
    expect_equal(sample["headers"].get("X-Service-Token"), "group-hook-secret", "the secret token sent with the test")
    # Real events: a subgroup created and a member added through the SDK reach the receiver.
    gl.groups.create({"name": "Announced", "path": "announced", "parent_id": group.id})
    created = receiver.wait_for(path, lambda r: (r["json"] or {}).get("event_name") == "subgroup_create" and r["json"].get("full_path") == f"{group.full_path}/announced")
    expect_equal(created[0]["headers"].get("X-Service-Event"), "Subgroup Hook", "the subgroup event's header")
    user, _ = new_user(gl)
    group.members.create({"user_id": user.id, "access_level": 30})
    receiver.wait_for(path, lambda r: (r["json"] or {}).get("event_name") == "user_add_to_group" and r["json"].get("user_username") == user.username)
    events = gl.http_get(f"/groups/{group.id}/hooks/{hook.id}/events")
    expect(len(events) >= 3, f"the delivery log lists the deliveries: {len(events)}")
    group.hooks.delete(hook.id)
    expect_error(glexc.GitlabGetError, 404, lambda: group.hooks.get(hook.id), "a deleted hook")


@scenario
def project_hooks_create_edit_test_and_delete(ctx):
    gl, receiver = ctx["gl"], ctx["receiver"]
    allow_local_hooks(gl)
    group = new_group(gl)
    project = gl.projects.create({"name": unique("py-hooked"), "namespace_id": group.id})
    path = f"/project-{project.id}"
    hook = project.hooks.create({"url": receiver.url + path, "push_events": True, "issues_events": False, "enable_ssl_verification": False})
    expect_equal((hook.project_id, hook.push_events, hook.issues_events), (project.id, True, False), "the created project hook")
    hook.issues_events = True
    hook.push_events_branch_filter = "main"
    hook.save()
    fresh = project.hooks.get(hook.id)
    expect_equal((fresh.issues_events, fresh.push_events_branch_filter), (True, "main"), "the project hook after save()")
    result = gl.http_post(f"/projects/{project.id}/hooks/{hook.id}/test/push_events")
    expect_equal(result["response_status"], 200, f"the test delivery's outcome: {result}")
    delivered = receiver.wait_for(path)[0]
    expect_equal((delivered["json"] or {}).get("object_kind"), "push", "the sample push event")
    expect_error(glexc.GitlabHttpError, 400, lambda: gl.http_post(f"/projects/{project.id}/hooks/{hook.id}/test/subgroup_events"), "a trigger projects do not have", "trigger")
    expect_error(glexc.GitlabCreateError, 422, lambda: project.hooks.create({"url": "ftp://example.com/hook"}), "a non-http URL")
    project.hooks.delete(hook.id)
    expect_equal(project.hooks.list(), [], "no project hooks after deletion")


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


# ----------------------------------------------------------------------------- runner


def main(argv):
    wanted = set(argv[1:])
    unknown = wanted - {s.__name__ for s in SCENARIOS}
    if unknown:
        print(f"unknown scenarios: {', '.join(sorted(unknown))}")
        return 2
    print(f"python-gitlab {gitlab.__version__} against {URL}")
    ctx = {"gl": admin(), "receiver": Receiver()}
    results = []
    try:
        for fn in SCENARIOS:
            if wanted and fn.__name__ not in wanted:
                continue
            started = time.monotonic()
            try:
                fn(ctx)
                ok, detail = True, ""
            except Exception:  # every failure, assertion or SDK error, is reported with its trace
                ok, detail = False, traceback.format_exc()
            ms = round((time.monotonic() - started) * 1000)
            results.append({"name": fn.__name__, "ok": ok, "ms": ms, "detail": detail})
            print(f"{'PASS' if ok else 'FAIL'} {fn.__name__} ({ms} ms)")
            if not ok:
                print("    " + detail.rstrip().replace("\n", "\n    "))
    finally:
        ctx["receiver"].close()
    failed = [r["name"] for r in results if not r["ok"]]
    print(f"{len(results) - len(failed)} of {len(results)} scenarios passed" + (f"; failed: {', '.join(failed)}" if failed else ""))
    print("RESULTS " + json.dumps(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
