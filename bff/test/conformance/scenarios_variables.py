"""python-gitlab scenarios: CI/CD variables of projects and groups."""

from gitlab import exceptions as glexc

from support import client, expect, expect_equal, expect_error, new_group_with_project, new_user, scenario


@scenario
def project_variables_create_get_update_delete(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-variables")
    v = project.variables.create({"key": "DEPLOY_TOKEN", "value": "s3cr3t-value", "protected": True, "description": "deploys"})
    expect_equal((v.key, v.value, v.protected, v.masked, v.variable_type, v.environment_scope), ("DEPLOY_TOKEN", "s3cr3t-value", True, False, "env_var", "*"), "variable created")
    expect_equal(project.variables.get("DEPLOY_TOKEN").value, "s3cr3t-value", "variables.get")
    expect_equal([x.key for x in project.variables.list()], ["DEPLOY_TOKEN"], "variables.list")
    v.value = "rotated-value"
    v.masked = True
    v.save()
    got = project.variables.get("DEPLOY_TOKEN")
    expect_equal((got.value, got.masked), ("rotated-value", True), "saved")
    project.variables.update("DEPLOY_TOKEN", {"value": "rotated-value", "variable_type": "file"})
    expect_equal(project.variables.get("DEPLOY_TOKEN").variable_type, "file", "variables.update")
    expect_error(glexc.GitlabCreateError, 400, lambda: project.variables.create({"key": "DEPLOY_TOKEN", "value": "again"}), "a taken key", "has already been taken")
    expect_error(glexc.GitlabCreateError, 400, lambda: project.variables.create({"key": "BAD-KEY", "value": "x"}), "a bad key")
    expect_error(glexc.GitlabCreateError, 400, lambda: project.variables.create({"key": "SHORT", "value": "short", "masked": True}), "an unmaskable value")

    user, token = new_user(gl)
    project.members.create({"user_id": user.id, "access_level": 30})
    as_developer = client(token).projects.get(project.id, lazy=True)
    expect_error(glexc.GitlabListError, 403, lambda: as_developer.variables.list(), "a Developer lists")

    project.variables.delete("DEPLOY_TOKEN")
    expect_error(glexc.GitlabGetError, 404, lambda: project.variables.get("DEPLOY_TOKEN"), "a deleted variable")


@scenario
def project_variables_in_environment_scopes(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-variable-scopes")
    project.variables.create({"key": "URL", "value": "https://everywhere"})
    project.variables.create({"key": "URL", "value": "https://prod", "environment_scope": "production"})
    expect_error(glexc.GitlabGetError, 409, lambda: project.variables.get("URL"), "an ambiguous key")
    prod = project.variables.get("URL", filter={"environment_scope": "production"})
    expect_equal(prod.value, "https://prod", "get with filter[environment_scope]")
    project.variables.delete("URL", filter={"environment_scope": "production"})
    expect_equal(project.variables.get("URL").value, "https://everywhere", "the other scope stays")


@scenario
def group_variables_create_get_update_delete(ctx):
    gl = ctx["gl"]
    group, _ = new_group_with_project(gl, "py-group-variables")
    group = gl.groups.get(group.id)
    v = group.variables.create({"key": "REGISTRY_PASSWORD", "value": "pa55word-123", "masked": True})
    expect_equal((v.key, v.masked, v.value), ("REGISTRY_PASSWORD", True, "pa55word-123"), "group variable created")
    expect_equal([x.key for x in group.variables.list()], ["REGISTRY_PASSWORD"], "group.variables.list")
    v.protected = True
    v.save()
    expect(group.variables.get("REGISTRY_PASSWORD").protected, "saved as protected")

    user, token = new_user(gl)
    group.members.create({"user_id": user.id, "access_level": 40})
    as_maintainer = client(token).groups.get(group.id, lazy=True)
    expect_error(glexc.GitlabGetError, 403, lambda: as_maintainer.variables.get("REGISTRY_PASSWORD"), "a group Maintainer reads")

    group.variables.delete("REGISTRY_PASSWORD")
    expect_equal(list(group.variables.list()), [], "deleted")
