from django.db import migrations, models


def mark_comebacks(apps, schema_editor):
    """Sitting down again with the stack cashed out here was written as a buy-in: a
    buy-in right after that player's own cash-out of the same (non-zero) amount at the
    same table is that stack coming back, not new chips."""
    ChipMovement = apps.get_model("tables", "ChipMovement")
    previous = {}  # (table id, user id) -> the player's last movement there
    comebacks = []
    for movement in ChipMovement.objects.order_by("table_id", "created_at", "id").iterator():
        key = (movement.table_id, movement.user_id)
        last = previous.get(key)
        if (
            movement.user_id is not None
            and movement.kind == "buy_in"
            and last is not None
            and last.kind == "cash_out"
            and last.amount > 0
            and last.amount == movement.amount
        ):
            comebacks.append(movement.pk)
        previous[key] = movement
    ChipMovement.objects.filter(pk__in=comebacks).update(kind="comeback")


def unmark_comebacks(apps, schema_editor):
    ChipMovement = apps.get_model("tables", "ChipMovement")
    ChipMovement.objects.filter(kind="comeback").update(kind="buy_in")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0016_practice_auto_rebuy"),
    ]

    operations = [
        migrations.AlterField(
            model_name="chipmovement",
            name="kind",
            field=models.CharField(
                choices=[
                    ("buy_in", "Buy-in"),
                    ("rebuy", "Rebuy"),
                    ("cash_out", "Cash-out"),
                    ("comeback", "Came back with the stack cashed out"),
                ],
                max_length=8,
            ),
        ),
        migrations.RunPython(mark_comebacks, unmark_comebacks),
    ]
