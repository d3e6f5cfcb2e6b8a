"""python-gitlab scenarios: group milestones and their issues."""

from gitlab import exceptions as glexc

from support import client, expect, expect_equal, expect_error, in_days, new_group_with_project, new_user, scenario


@scenario
def group_milestones_create_list_close_and_delete(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-milestones")
    group = gl.groups.get(group.id)
    m = group.milestones.create({"title": "v1.0", "description": "First release", "start_date": in_days(-7), "due_date": in_days(7)})
    expect_equal((m.title, m.state, m.iid), ("v1.0", "active", 1), "milestone created")
    later = group.milestones.create({"title": "v2.0", "start_date": in_days(30), "due_date": in_days(60)})
    expect_equal(group.milestones.get(m.id).title, "v1.0", "milestone by id")
    expect_equal([x.id for x in group.milestones.list(search="first")], [m.id], "list(search=)")
    expect_equal([x.id for x in group.milestones.list(iids=[2])], [later.id], "list(iids=)")
    expect_equal([x.id for x in group.milestones.list(containing_date=in_days(0))], [m.id], "list(containing_date=)")

    issue = project.issues.create({"title": "Ship it", "milestone_id": m.id, "weight": 3})
    expect_equal([i.id for i in group.milestones.get(m.id).issues()], [issue.id], "milestone.issues()")
    expect_equal(list(group.milestones.get(m.id).merge_requests()), [], "milestone.merge_requests()")

    m.state_event = "close"
    m.save()
    expect_equal(group.milestones.get(m.id).state, "closed", "closed with state_event")
    expect_equal([x.id for x in group.milestones.list(state="closed")], [m.id], "list(state=closed)")

    user, token = new_user(gl)
    group.members.create({"user_id": user.id, "access_level": 20})
    as_reporter = client(token).groups.get(group.id, lazy=True)
    expect_error(glexc.GitlabDeleteError, 403, lambda: as_reporter.milestones.delete(later.id), "a Reporter deletes")
    group.milestones.delete(later.id)
    expect_error(glexc.GitlabGetError, 404, lambda: group.milestones.get(later.id), "a deleted milestone")
    expect(gl.projects.get(project.id).issues.get(issue.iid).milestone["id"] == m.id, "the issue keeps its milestone")


@scenario
def project_milestones_create_list_close_and_delete(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-project-milestones")
    group = gl.groups.get(group.id)
    project = gl.projects.get(project.id)
    m = project.milestones.create({"title": "p1", "description": "Project first", "due_date": in_days(14)})
    expect_equal((m.title, m.state, m.iid, m.project_id), ("p1", "active", 1, project.id), "project milestone created")
    expect_equal(project.milestones.get(m.id).description, "Project first", "milestone by id")
    g = group.milestones.create({"title": "g1"})
    expect_equal([x.id for x in project.milestones.list()], [m.id], "the project's own")
    expect_equal(sorted(x.id for x in project.milestones.list(include_parent_milestones=True)), sorted([m.id, g.id]), "list(include_parent_milestones=)")

    issue = project.issues.create({"title": "Project milestone work", "milestone_id": m.id})
    expect_equal([i.id for i in project.milestones.get(m.id).issues()], [issue.id], "milestone.issues()")
    expect_equal(list(project.milestones.get(m.id).merge_requests()), [], "milestone.merge_requests()")

    m.state_event = "close"
    m.save()
    expect_equal(project.milestones.get(m.id).state, "closed", "closed with state_event")
    expect_error(glexc.GitlabGetError, 404, lambda: project.milestones.get(g.id), "a group milestone through the project")
    project.milestones.delete(m.id)
    expect_error(glexc.GitlabGetError, 404, lambda: project.milestones.get(m.id), "a deleted milestone")
