"""python-gitlab scenarios: pipeline trigger tokens, triggering, commit statuses and pipelines."""

from gitlab import exceptions as glexc

from scenarios_repository import push_commits
from support import allow_local_hooks, client, expect, expect_equal, expect_error, new_group_with_project, new_user, scenario


def project_with_commit(gl, prefix):
    group, project = new_group_with_project(gl, prefix)
    push_commits(project)
    return group, project, project.branches.get("main").commit["id"]


@scenario
def pipeline_triggers_create_list_update_delete_and_trigger(ctx):
    gl = ctx["gl"]
    group, project, sha = project_with_commit(gl, "py-triggers")
    trigger = project.triggers.create({"description": "from python"})
    expect(trigger.token.startswith("gtptt-"), f"the owner sees the whole token: {trigger.token!r}")
    expect_equal([t.id for t in project.triggers.list()], [trigger.id], "triggers.list()")
    trigger.description = "renamed"
    trigger.save()
    expect_equal(project.triggers.get(trigger.id).description, "renamed", "a saved description")

    # Another Maintainer sees four characters of it.
    user, token = new_user(gl)
    group.members.create({"user_id": user.id, "access_level": 40})
    expect_equal(client(token).projects.get(project.id).triggers.get(trigger.id).token, trigger.token[:4], "another Maintainer's view")

    pipeline = project.trigger_pipeline("main", trigger.token, variables={"DEPLOY": "yes"})
    expect_equal((pipeline.sha, pipeline.source, pipeline.status), (sha, "trigger", "created"), "the triggered pipeline")
    expect_equal([(v.key, v.value) for v in project.pipelines.get(pipeline.id).variables.list()], [("DEPLOY", "yes")], "its variables")
    expect(project.triggers.get(trigger.id).last_used is not None, "last_used is kept")
    expect_error(glexc.GitlabCreateError, 400, lambda: project.trigger_pipeline("no-such-ref", trigger.token), "an unknown ref", "Reference not found")
    trigger.delete()
    expect_error(glexc.GitlabGetError, 404, lambda: project.triggers.get(trigger.id), "a deleted trigger")
    expect_error(glexc.GitlabCreateError, 404, lambda: project.trigger_pipeline("main", trigger.token), "a revoked token")


@scenario
def commit_statuses_move_a_pipeline_and_pipelines_api(ctx):
    gl = ctx["gl"]
    allow_local_hooks(gl)
    receiver = ctx["receiver"]
    _, project, sha = project_with_commit(gl, "py-statuses")
    project.hooks.create({"url": f"{receiver.url}/py-pipelines", "push_events": False, "pipeline_events": True, "job_events": True})
    commit = project.commits.get(sha, lazy=True)
    build = commit.statuses.create({"state": "running", "name": "build", "ref": "main", "target_url": "https://ci.example.com/1"})
    pipeline = project.pipelines.get(build.pipeline_id)
    expect_equal((pipeline.status, pipeline.source), ("running", "external"), "a pipeline made by a status")
    commit.statuses.create({"state": "success", "name": "build", "ref": "main", "coverage": 90.5})
    commit.statuses.create({"state": "failed", "name": "test", "ref": "main"})
    expect_equal(project.pipelines.get(pipeline.id).status, "failed", "composed from its jobs")
    expect_equal(sorted((s.name, s.status) for s in commit.statuses.list()), [("build", "success"), ("test", "failed")], "commit.statuses.list()")
    expect_equal([p.id for p in project.pipelines.list(status="failed")], [pipeline.id], "pipelines.list(status=)")
    expect_equal([p.id for p in project.pipelines.list(source="trigger")], [], "pipelines.list(source=)")
    expect_equal(sorted(j.name for j in pipeline.jobs.list()), ["build", "test"], "pipeline.jobs.list()")
    pipeline.retry()
    expect_equal(project.pipelines.get(pipeline.id).status, "running", "a retried pipeline runs again")
    pipeline.cancel()
    expect_equal(project.pipelines.get(pipeline.id).status, "canceled", "a canceled pipeline")
    receiver.wait_for("/py-pipelines", lambda r: (r["json"] or {}).get("object_kind") == "pipeline" and r["json"]["object_attributes"]["status"] == "canceled")
    receiver.wait_for("/py-pipelines", lambda r: (r["json"] or {}).get("object_kind") == "build" and r["json"]["build_name"] == "test")
    pipeline.delete()
    expect_error(glexc.GitlabGetError, 404, lambda: project.pipelines.get(pipeline.id), "a deleted pipeline")
