"""Shared pieces of the python-gitlab conformance scenarios: the server to drive, checks that
really fail, factories, a webhook receiver, and the registry of scenarios."""

import datetime
import http.server
import json
import os
import threading
import time
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


def new_group_with_project(gl, prefix):
    """A fresh group and a project in it, for scenarios about projects."""
    group = new_group(gl)
    return group, gl.projects.create({"name": unique(prefix), "namespace_id": group.id})


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
    """A real HTTP receiver on 127.0.0.1 for webhook deliveries: records what arrives and answers
    200, or the status a path starting with /status/<code>/ asks for."""

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
                parts = self.path.split("/")
                status = int(parts[2]) if len(parts) > 3 and parts[1] == "status" and parts[2].isdigit() else 200
                self.send_response(status)
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


# ----------------------------------------------------------------------------- registry

SCENARIOS = []


def scenario(fn):
    """Registers a scenario: a function of the shared context (admin client, receiver)."""
    SCENARIOS.append(fn)
    return fn
