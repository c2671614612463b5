import pytest

URL = "/healthz"


@pytest.mark.django_db(transaction=True)
def test_healthz_reports_every_service_up(client):
    response = client.get(URL)

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"database": "ok", "channel_layer": "ok", "broker": "ok"}
    assert body["tables"]["overdue"] == []


@pytest.mark.django_db(transaction=True)
def test_healthz_answers_503_and_names_a_dead_broker(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get(URL)

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["checks"]["broker"].startswith("down: ")
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] == "ok"


@pytest.mark.django_db(transaction=True)
def test_healthz_answers_503_and_names_a_dead_channel_layer(client, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:1/0"}]},
        }
    }

    response = client.get(URL)

    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"].startswith("down: ")
