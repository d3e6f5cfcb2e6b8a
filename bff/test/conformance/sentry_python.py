"""Debian's python3-sentry-sdk, unchanged, reporting into the DSN it is given (SENTRY_DSN): an
exception raised twice by one function for two users, a message and a session. Its transport
sends events to the store endpoint and sessions in envelopes, both gzipped."""
import os

import sentry_sdk

TAG = os.environ.get("SCENARIO_TAG", "untagged")
sentry_sdk.init(dsn=os.environ["SENTRY_DSN"], release="conformance@1.0.0", environment="conformance", default_integrations=False, auto_session_tracking=False)


def failing_handler():
    raise ValueError(f"python conformance {TAG}")


for user in ({"id": "py-user-1"}, {"email": "py-user-2@example.com"}):
    sentry_sdk.set_user(user)
    try:
        failing_handler()
    except ValueError:
        sentry_sdk.capture_exception()
sentry_sdk.set_user(None)
sentry_sdk.capture_message(f"python message {TAG}")
hub = sentry_sdk.Hub.current
hub.start_session(session_mode="application")
hub.end_session()
sentry_sdk.flush(10)
print("FLUSHED True")
