"""Schemathesis hooks for pushmap-server's conformance test: how to send an NDJSON body."""
import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    # The document says a batch body is a string of lines; send it as is.
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8")
