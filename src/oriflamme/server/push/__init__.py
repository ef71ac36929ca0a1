""""Your turn" wherever the player is: Web Push for signed-in players (docs/server.md, "Push
notifications"). ``keys``: the server's VAPID key pair, made once and shared by every process;
``subscriptions``: what a browser's subscription must be; ``timing``: how long a decision
waits before its push; ``sender``: the loop that finds decisions waiting for an absent player
and sends each one push; ``routes``: the API and the service worker."""
