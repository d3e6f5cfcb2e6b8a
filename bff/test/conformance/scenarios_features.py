"""python-gitlab scenarios: the Features API (feature flags; administrators only)."""

from gitlab import exceptions as glexc

from support import client, expect, expect_equal, expect_error, new_group_with_project, new_user, scenario

PDF = "vulnerabilities_pdf_export"


@scenario
def features_set_for_actors_list_and_delete(ctx):
    gl = ctx["gl"]
    group, project = new_group_with_project(gl, "py-flags")
    _, other = new_group_with_project(gl, "py-unflagged")
    user, token = new_user(gl)
    exports = f"/security/projects/{project.id}/vulnerability_exports"
    try:
        on = gl.features.set(PDF, True)
        expect_equal((on.name, on.state, on.gates), (PDF, "on", [{"key": "boolean", "value": True}]), "the flag set on for everyone")
        expect_equal((on.definition["name"], on.definition["default_enabled"]), (PDF, False), "the flag's definition")
        # Off for everyone clears it; then on for one project and one user only.
        gl.features.set(PDF, False)
        some = gl.features.set(PDF, True, project=project.path_with_namespace, user=user.username)
        expect_equal(some.state, "conditional", "the flag on for some actors")
        expect_equal(some.gates[1], {"key": "actors", "value": [f"User:{user.id}", f"Project:{project.id}"]}, "its actor gates")
        listed = [f for f in gl.features.list() if f.name == PDF]
        expect_equal([f.gates for f in listed], [some.gates], "gl.features.list()")
        # It takes effect for that project only.
        made = gl.http_post(exports, post_data={"export_format": "pdf", "send_email": False})
        expect_equal(made["format"], "pdf", "a PDF export of the project the flag is on for")
        expect_error(glexc.GitlabHttpError, 400, lambda: gl.http_post(f"/security/projects/{other.id}/vulnerability_exports", post_data={"export_format": "pdf"}), "a PDF export of another project", PDF)
        timed = gl.features.set(PDF, 30)
        expect_equal(timed.gates[-1], {"key": "percentage_of_time", "value": 30}, "a percentage of time")
        expect_error(glexc.GitlabSetError, 400, lambda: gl.features.set(PDF, True, user="nobody-by-that-name"), "an unknown user", "nobody-by-that-name is not found!")
        expect_error(glexc.GitlabSetError, 400, lambda: gl.features.set("no_such_flag", True), "a flag Gatehouse does not define", "no definition")
        expect_error(glexc.GitlabListError, 403, lambda: client(token).features.list(), "the flags listed by a user who is not an administrator")
        listed[0].delete()
        expect(PDF not in [f.name for f in gl.features.list()], "the deleted flag is no longer listed")
        expect_error(glexc.GitlabHttpError, 400, lambda: gl.http_post(exports, post_data={"export_format": "pdf"}), "a PDF export once the flag has its default (off) again", PDF)
        gl.features.delete(PDF)
    finally:
        gl.http_delete(f"/features/{PDF}")
