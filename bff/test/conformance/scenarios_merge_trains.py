"""python-gitlab scenarios: merging a merge request, and a merge request through a merge train."""

import time

from gitlab import exceptions as glexc

from support import expect, expect_equal, expect_error, new_group_with_project, scenario


def commit_file(project, branch, name, start=None):
    data = {"branch": branch, "commit_message": f"Add {name}", "actions": [{"action": "create", "file_path": name, "content": f"{name}\n"}]}
    if start:
        data["start_branch"] = start
    return project.commits.create(data)


def enable_trains(gl, project):
    # As a maintainer does it with python-gitlab: the setting is an attribute of the project.
    project.merge_trains_enabled = True
    project.save()
    expect_equal(gl.projects.get(project.id).merge_trains_enabled, True, "merge trains turned on")


def wait_for(probe, what):
    for _ in range(600):
        value = probe()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"still waiting for {what}")


@scenario
def merge_requests_merge_and_merge_trains(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-trains")
    commit_file(project, "main", "README.md")
    commit_file(project, "direct", "direct.txt", start="main")
    direct = project.mergerequests.create({"source_branch": "direct", "target_branch": "main", "title": "Merged directly"})
    direct.merge(merge_commit_message="Merge it directly")
    expect_equal(project.mergerequests.get(direct.iid).state, "merged", "a merged merge request")
    expect_error(glexc.GitlabMRClosedError, 405, lambda: direct.merge(), "merging it again")

    enable_trains(gl, project)
    commit_file(project, "train", "train.txt", start="main")
    mr = project.mergerequests.create({"source_branch": "train", "target_branch": "main", "title": "On the train"})
    gl.http_post(f"/projects/{project.id}/merge_trains/merge_requests/{mr.iid}", post_data={"sha": mr.sha})
    car = wait_for(lambda: next((c for c in project.merge_trains.list(scope="active") if c.pipeline), None), "a train pipeline")
    expect_equal(car.pipeline["ref"], f"refs/merge-requests/{mr.iid}/train", "the train ref")
    project.commits.get(car.pipeline["sha"], lazy=True).statuses.create({"state": "success", "name": "train", "ref": car.pipeline["ref"]})
    wait_for(lambda: project.mergerequests.get(mr.iid).state == "merged", "the train to merge it")
    complete = project.merge_trains.list(scope="complete")
    expect_equal([c.merge_request["iid"] for c in complete], [mr.iid], "merge_trains.list(scope='complete')")
    expect(complete[0].duration is not None, "a merged car has its duration")


@scenario
def merge_when_pipeline_succeeds(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-automerge")
    commit_file(project, "main", "README.md")
    head = commit_file(project, "auto", "auto.txt", start="main")
    mr = project.mergerequests.create({"source_branch": "auto", "target_branch": "main", "title": "Merged when it passes"})
    status = project.commits.get(head.id, lazy=True).statuses
    status.create({"state": "running", "name": "ci", "ref": "auto"})
    mr.merge(merge_when_pipeline_succeeds=True, merge_commit_message="Merged by auto-merge")
    expect_equal([mr.state, mr.merge_when_pipeline_succeeds, mr.merge_user["id"]], ["opened", True, gl.user.id], "set to merge when the pipeline succeeds")
    expect_equal(mr.cancel_merge_when_pipeline_succeeds(), {"status": "success"}, "the cancel answer, as the platform's")
    expect_equal(project.mergerequests.get(mr.iid).merge_when_pipeline_succeeds, False, "cancelled")
    mr.merge(merge_when_pipeline_succeeds=True, merge_commit_message="Merged by auto-merge")
    status.create({"state": "success", "name": "ci", "ref": "auto"})
    wait_for(lambda: project.mergerequests.get(mr.iid).state == "merged", "the automatic merge")
    expect_equal(project.commits.list(ref_name="main", per_page=1)[0].title, "Merged by auto-merge", "the merge commit on main")
