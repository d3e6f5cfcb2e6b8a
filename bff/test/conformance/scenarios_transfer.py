"""python-gitlab scenarios: group export and import in the platform's archive, placeholder reassignments."""

import csv
import io
import time

from gitlab import exceptions as glexc

from support import ScenarioFailure, expect, expect_equal, expect_error, new_group, new_user, scenario, unique


def _wait(check, what, timeout=30):
    until = time.time() + timeout
    while True:
        found = check()
        if found is not None:
            return found
        if time.time() > until:
            raise ScenarioFailure(f"timed out waiting for {what}")
        time.sleep(0.1)


def _download(export):
    """The export (what group.exports.create() returned), once written: its download answers 404 until then."""

    def attempt():
        try:
            return export.download()
        except glexc.GitlabGetError as e:
            if getattr(e, "response_code", None) == 404:
                return None
            raise

    return _wait(attempt, "the group export")


def _imported(gl, full_path):
    def attempt():
        try:
            g = gl.groups.get(full_path)
        except glexc.GitlabGetError:
            return None
        return g if getattr(g, "import_status", None) in ("finished", "failed") else None

    return _wait(attempt, f"the import of {full_path}")


@scenario
def group_export_create_download_and_import_group(ctx):
    gl = ctx["gl"]
    group = new_group(gl)
    child = gl.groups.create({"name": "Child", "path": unique("py-child"), "parent_id": group.id})
    group.labels.create({"name": "exported", "color": "#112233"})
    parent_epic = group.epics.create({"title": "Parent epic"})
    group.epics.create({"title": "Child epic", "parent_id": parent_epic.id})
    expect_error(glexc.GitlabHttpError, 404, lambda: gl.http_get(f"/groups/{group.id}/export/download"), "the download of a group never exported")
    archive = _download(group.exports.create())
    expect(archive[:2] == b"\x1f\x8b", "the export is gzip")

    path = unique("py-imported")
    answer = gl.groups.import_group(io.BytesIO(archive), path=path, name="Imported by python-gitlab")
    expect_equal(answer, {"message": "202 Accepted"}, "gl.groups.import_group()")
    imported = _imported(gl, path)
    expect_equal((imported.import_status, imported.visibility), ("finished", "private"), "the imported group")
    expect_equal([s.path for s in imported.subgroups.list(get_all=True)], [child.path], "its subgroup")
    expect_equal([(lb.name, lb.color) for lb in imported.labels.list(get_all=True)], [("exported", "#112233")], "its label")
    epics = {e.title: e for e in imported.epics.list(get_all=True)}
    expect_equal(epics["Child epic"].parent_id, epics["Parent epic"].id, "the child epic's parent")

    under = unique("py-under")
    gl.groups.import_group(io.BytesIO(archive), path=under, name="Under a parent", parent_id=str(group.id))  # 3.12 puts fields in multipart as given: a string
    expect_equal(_imported(gl, f"{group.full_path}/{under}").import_status, "finished", "import_group(parent_id=...)")
    expect_error(glexc.GitlabImportError, 400, lambda: gl.groups.import_group(io.BytesIO(b"not an archive"), path=unique("py-bad"), name="Bad"), "a file that is no archive")


@scenario
def placeholder_reassignments_csv_download_and_upload(ctx):
    # python-gitlab 3.12 has no manager for these routes: its raw http_get/http_post, as a script would.
    gl = ctx["gl"]
    group = new_group(gl)
    author, _ = new_user(gl)
    group.epics.create({"title": "Written before the move"})
    archive = _download(group.exports.create())
    path = unique("py-placeholders")
    gl.groups.import_group(io.BytesIO(archive), path=path, name="Placeholders")
    imported = _imported(gl, path)
    res = gl.http_get(f"/groups/{imported.id}/placeholder_reassignments", raw=True)
    expect_equal(res.headers.get("Content-Type"), "text/csv; charset=utf-8", "the CSV's Content-Type")
    rows = list(csv.reader(io.StringIO(res.text)))
    expect_equal(rows[0], ["Source host", "Import type", "Source user identifier", "Source user name", "Source username", "Platform username", "Platform public email"], "the CSV's columns")
    expect(len(rows) >= 2, f"a pending placeholder (the author of the epic, unknown by public email): {rows}")
    rows[1][5] = author.username
    out = io.StringIO()
    csv.writer(out).writerows(rows[:2])
    answer = gl.http_post(f"/groups/{imported.id}/placeholder_reassignments", files={"file": ("reassign.csv", out.getvalue().encode(), "text/csv")})
    expect_equal(answer, {"message": "The file is being processed and you will receive an email when completed."}, "the upload's answer")

    def reassigned():
        epic = imported.epics.list(get_all=True)[0]
        return epic if epic.author and epic.author["id"] == author.id else None

    _wait(reassigned, "the epic's author reassigned")
