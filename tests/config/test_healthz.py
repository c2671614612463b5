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


async def live_check(method: str) -> tuple[int, dict[bytes, bytes], bytes]:
    from channels.testing import HttpCommunicator

    from config.asgi import application

    answer = await HttpCommunicator(application, method, "/healthz/live").get_response()
    return answer["status"], dict(answer["headers"]), answer["body"]


async def test_the_live_check_answers_for_the_process_alone_before_django(settings):
    # No shared service is asked, nor Django: not even the host is checked, since a
    # balancer may ask by the node's address.
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    settings.ALLOWED_HOSTS = []
    status, headers, body = await live_check("GET")
    assert (status, body) == (200, b'{"status": "ok"}')
    assert headers[b"cache-control"] == b"no-store"
    assert (await live_check("HEAD"))[::2] == (200, b"")
    status, headers, _ = await live_check("POST")
    assert status == 405 and headers[b"allow"] == b"GET, HEAD"
