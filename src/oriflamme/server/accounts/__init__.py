"""Players' accounts (docs/server.md, "Accounts and sessions"), one concept per module:

- :mod:`.passwords` (argon2id, what a password may be) and :mod:`.common` (common passwords);
- :mod:`.sessions` (session ids, cookies, expiry and renewal) and :mod:`.origins`;
- :mod:`.current` (who is signed in: the ``signed_in`` and ``require_account`` dependencies);
- :mod:`.csrf` (the server-wide CSRF rule) and :mod:`.throttle` (failed sign-ins);
- :mod:`.passkeys` (WebAuthn ceremonies); :mod:`.export` (an account's data as JSON);
- :mod:`.routes` and :mod:`.passkey_routes` (the HTTP API); :mod:`.admin` (``oriflamme
  accounts``).
"""
