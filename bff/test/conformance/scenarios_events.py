"""python-gitlab scenarios: activity events (of a project, a user, the caller) and epics."""

from gitlab import exceptions as glexc

from support import client, expect, expect_equal, expect_error, new_group, new_group_with_project, new_user, scenario


@scenario
def events_of_a_project_user_and_caller(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-events")
    user, token = new_user(gl, scopes=("read_user",))
    group.members.create({"user_id": user.id, "access_level": 30})
    project.commits.create({"branch": "main", "commit_message": "chore: start", "actions": [{"action": "create", "file_path": "README.md", "content": "# e\n"}]})
    project.commits.create({"branch": "main", "commit_message": "feat: more", "actions": [{"action": "create", "file_path": "a.txt", "content": "a\n"}]})
    events = project.events.list(get_all=True)
    expect_equal([e.action_name for e in events], ["pushed", "pushed"], "project.events.list()")
    expect_equal(events[0].push_data["commit_title"], "feat: more", "the newest push first, with its push_data")
    expect_equal([e.push_data["action"] for e in project.events.list(sort="asc", get_all=True)], ["created", "pushed"], "events.list(sort=asc)")
    expect_equal(project.events.list(action="commented", get_all=True), [], "events.list(action=commented)")
    expect_equal(project.events.list(target_type="issue", get_all=True), [], "events.list(target_type=issue)")
    own = client(token).events.list(get_all=True)
    expect_equal(own, [], "a read_user token reads the caller's own (no) events")
    everyone = client(token).events.list(scope="all", get_all=True)
    expect_equal(len(everyone), 2, "events.list(scope=all): the events of the caller's projects")
    root = gl.users.list(username="root")[0]
    expect(len(root.events.list(get_all=True)) >= 2, "user.events.list()")
    expect_error(glexc.GitlabListError, 400, lambda: project.events.list(action="danced", get_all=True), "an unknown action")


@scenario
def epics_create_list_update_and_close(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    sub = new_group(gl, parent_id=group.id)
    roadmap = group.epics.create({"title": "Roadmap", "description": "Plan", "start_date_is_fixed": True, "start_date_fixed": "2026-01-01"})
    expect_equal((roadmap.iid, roadmap.state, roadmap.start_date), (1, "opened", "2026-01-01"), "group.epics.create()")
    child = sub.epics.create({"title": "Child", "parent_id": roadmap.id, "labels": ""})
    expect_equal(child.parent_iid, roadmap.iid, "an epic with a parent of the ancestor group")
    listed = group.epics.list(get_all=True)
    expect_equal(sorted(e.references["relative"] for e in listed), sorted(["&1", f"{sub.full_path}&1"]), "group.epics.list() covers subgroups, references relative to the group asked")
    expect_equal([e.title for e in group.epics.list(include_descendant_groups=False, get_all=True)], ["Roadmap"], "include_descendant_groups=false")
    got = group.epics.get(roadmap.iid)
    got.title = "Roadmap 2"
    got.state_event = "close"
    got.save()
    again = group.epics.get(roadmap.iid)
    expect_equal((again.title, again.state), ("Roadmap 2", "closed"), "epic.save() with state_event=close")
    expect(again.closed_at is not None, "closed_at set")
    expect_equal([e.title for e in group.epics.list(state="closed", get_all=True)], ["Roadmap 2"], "epics.list(state=closed)")
    expect_error(glexc.GitlabGetError, 404, lambda: group.epics.get(99), "an unknown epic")
    expect_error(glexc.GitlabCreateError, 400, lambda: group.epics.create({"title": ""}), "an empty title")
