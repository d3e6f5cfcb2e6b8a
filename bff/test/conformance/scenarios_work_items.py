"""python-gitlab scenarios: issues, merge requests, notes and labels on a real repository."""

from gitlab import exceptions as glexc

from scenarios_commits import first_commits
from support import client, expect_equal, expect_error, new_group_with_project, new_user, scenario


@scenario
def issues_create_list_update_and_notes(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-issues")
    issue = project.issues.create({"title": "Broken build", "labels": ["bug", "ci"], "weight": 2})
    expect_equal((issue.iid, sorted(issue.labels), issue.state), (1, ["bug", "ci"], "opened"), "issues.create()")
    project.issues.create({"title": "Second"})
    expect_equal([i.iid for i in project.issues.list(labels=["bug"], get_all=True)], [1], "issues.list(labels=)")
    issue.title = "Broken build on main"
    issue.state_event = "close"
    issue.save()
    got = project.issues.get(1)
    expect_equal((got.title, got.state), ("Broken build on main", "closed"), "issue.save() edits and closes")
    expect_equal([i.iid for i in project.issues.list(state="opened", get_all=True)], [2], "issues.list(state=opened)")
    note = got.notes.create({"body": "Fixed by the last deploy"})
    expect_equal([n.body for n in got.notes.list(get_all=True) if not n.system], [note.body], "issue notes")
    events = got.resourcestateevents.list(get_all=True)
    expect_equal([e.state for e in events], ["closed"], "resource state events")
    expect_error(glexc.GitlabGetError, 404, lambda: project.issues.get(999), "an unknown issue")


@scenario
def merge_requests_create_list_changes_and_close(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-mrs")
    feature = first_commits(project)
    mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "More", "labels": "review"})
    expect_equal((mr.iid, mr.sha, mr.state), (1, feature.id, "opened"), "mergerequests.create()")
    expect_error(glexc.GitlabCreateError, 409, lambda: project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Again"}), "a second open MR", "already exists")
    expect_equal([m.iid for m in project.mergerequests.list(state="opened", get_all=True)], [1], "mergerequests.list()")
    expect_equal([c.id for c in mr.commits()], [feature.id], "mr.commits()")
    expect_equal(sorted(c["new_path"] for c in mr.changes()["changes"]), ["README.md", "src/util.py"], "mr.changes()")
    mr.notes.create({"body": "LGTM"})
    expect_equal([n.body for n in mr.notes.list(get_all=True)], ["LGTM"], "MR notes")
    mr.state_event = "close"
    mr.save()
    expect_equal(project.mergerequests.get(1).state, "closed", "mr.save() closes")


@scenario
def merge_request_approvals(ctx):
    gl = ctx["gl"]
    _, project = new_group_with_project(gl, "py-approvals")
    feature = first_commits(project)
    # Opened by the administrator; approved by a Developer (an author does not approve their own).
    own = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Approve me"})
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: own.approve(), "the author approves their own (the platform answers 401)")
    user, token = new_user(gl)
    project.members.create({"user_id": user.id, "access_level": 30})
    mr = client(token).projects.get(project.id, lazy=True).mergerequests.get(own.iid)
    expect_equal((mr.approvals.get().approved, mr.approvals.get().user_can_approve), (False, True), "approvals.get() before")
    expect_error(glexc.GitlabMRApprovalError, 409, lambda: mr.approve(sha="0" * 40), "approve() with a stale sha", "SHA does not match")
    answer = mr.approve(sha=feature.id)
    expect_equal([a["user"]["username"] for a in answer["approved_by"]], [user.username], "approve() answers the approvals")
    got = mr.approvals.get()
    expect_equal((got.approved, got.approvals_left, got.user_has_approved), (True, 0, True), "approvals.get() after")
    expect_error(glexc.GitlabAuthenticationError, 401, lambda: mr.approve(), "a second approval")
    mr.unapprove()
    expect_equal(mr.approvals.get().approved_by, [], "unapprove()")


@scenario
def labels_of_groups_and_projects(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-labels")
    group.labels.create({"name": "team", "color": "#336699"})
    label = project.labels.create({"name": "bug", "color": "#ff0000", "description": "Broken"})
    expect_equal((label.name, label.is_project_label), ("bug", True), "labels.create()")
    expect_equal(sorted(lb.name for lb in project.labels.list(get_all=True)), ["bug", "team"], "project labels include the group's")
    label.color = "#00ff00"
    label.save()
    expect_equal(project.labels.get(label.id).color, "#00ff00", "label.save()")
    label.delete()
    expect_equal([lb.name for lb in project.labels.list(get_all=True)], ["team"], "label.delete()")
