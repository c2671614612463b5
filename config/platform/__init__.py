"""Platform pieces under the apps: they know no app, and every app may use them.

Sending group messages, the API's errors, parsers and throttles, websocket
origins and handshake limits, the embedded Redis, security headers, database
connections, the static files' storage. The adapters over dependencies'
internals are in config/adapters/.
"""
