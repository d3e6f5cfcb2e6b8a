"""python-gitlab scenarios: users, personal, group access and deploy tokens."""

import uuid

from gitlab import exceptions as glexc

from support import client, expect, expect_equal, expect_error, in_days, new_group, new_user, scenario, unique


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
def users_edit_block_and_unblock(ctx):
    gl = ctx["gl"]
    user, token = new_user(gl)
    user.name = "Edited by save()"
    user.bio = "From python-gitlab"
    user.save()
    again = gl.users.get(user.id)
    expect_equal((again.name, again.bio), ("Edited by save()", "From python-gitlab"), "user.save() changes the account")
    other, _ = new_user(gl)
    other.username = user.username
    expect_error(glexc.GitlabUpdateError, 409, other.save, "a username another user has")
    expect_equal(user.block(), True, "user.block() returns True")
    expect_equal(gl.users.get(user.id).state, "blocked", "the blocked user's state")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(token).auth(), "a blocked user's token")
    expect_equal(user.unblock(), True, "user.unblock() returns True")
    me = client(token)
    me.auth()
    expect_equal(me.user.id, user.id, "the token works again after unblock")


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
def personal_access_tokens_self_service_create_and_rotate(ctx):
    # python-gitlab 3.12 has no managers for these routes: its raw HTTP calls, as scripts use them.
    gl = ctx["gl"]
    user, token = new_user(gl)
    me = client(token)
    kube = me.http_post("/user/personal_access_tokens", post_data={"name": "kube", "scopes": ["k8s_proxy"]})
    expect_equal((kube["user_id"], kube["scopes"], kube["expires_at"]), (user.id, ["k8s_proxy"], in_days(1)), "a self-service k8s_proxy token")
    expect(kube["token"], "the plaintext is returned on creation")
    expect_error(glexc.GitlabHttpError, 400, lambda: me.http_post("/user/personal_access_tokens", post_data={"name": "x", "scopes": ["api"]}), "a token minting an api token")
    other = user.personal_access_tokens.create({"name": "rotate-me", "scopes": ["read_api"], "expires_at": in_days(30)})
    rotated = me.http_post(f"/personal_access_tokens/{other.id}/rotate", post_data={"expires_at": in_days(20)})
    expect_equal((rotated["name"], rotated["scopes"], rotated["expires_at"]), ("rotate-me", ["read_api"], in_days(20)), "the rotated token")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(other.token).auth(), "the token rotated away")
    expect_error(glexc.GitlabHttpError, 400, lambda: me.http_post(f"/personal_access_tokens/{other.id}/rotate"), "rotating it again")
    renewed = me.http_post("/personal_access_tokens/self/rotate")
    expect_equal(renewed["expires_at"], in_days(7), "self rotation's default expiry")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(token).auth(), "the calling token after self rotation")
    again = client(renewed["token"])
    again.auth()
    expect_equal(again.user.id, user.id, "the new token authenticates its user")


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
def leaked_tokens_revoked_through_their_group(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    user, token = new_user(gl)
    group.members.create({"user_id": user.id, "access_level": 30})
    deploy = group.deploytokens.create({"name": "leaked", "scopes": ["read_repository"]})
    revoked = gl.http_post(f"/groups/{group.id}/tokens/revoke", post_data={"token": token})
    expect_equal((revoked["token_type"], revoked["user_id"], revoked["revoked"]), ("personal_access_token", user.id, True), "the revoked personal access token")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: client(token).auth(), "a token revoked through the group")
    revoked = gl.http_post(f"/groups/{group.id}/tokens/revoke", post_data={"token": deploy.token})
    expect_equal((revoked["token_type"], revoked["id"], revoked["revoked"]), ("deploy_token", deploy.id, True), "the revoked deploy token")
    expect_equal(group.deploytokens.get(deploy.id).revoked, True, "the deploy token reads as revoked")
    expect_error(glexc.GitlabHttpError, 404, lambda: gl.http_post(f"/groups/{group.id}/tokens/revoke", post_data={"token": "gtpat-not-a-real-token"}), "an unknown token")
