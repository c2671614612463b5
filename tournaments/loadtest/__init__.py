"""Tournament load runs: sit-n-gos (``sng``) and club tournaments (``mtt``) of websocket
clients, built on the tables' load-test clients (``tables/loadtest/``)."""
