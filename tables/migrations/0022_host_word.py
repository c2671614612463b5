from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0021_table_listed"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="barred_user_ids",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="table",
            name="stack_changes",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="seatrequest",
            name="is_rebuy",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="chipmovement",
            name="kind",
            field=models.CharField(
                choices=[
                    ("buy_in", "Buy-in"),
                    ("rebuy", "Rebuy"),
                    ("cash_out", "Cash-out"),
                    ("comeback", "Came back with the stack cashed out"),
                    ("correction", "The host corrected the stack"),
                    ("transfer", "The host moved chips between players"),
                ],
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="chipmovement",
            name="amount",
            field=models.IntegerField(),
        ),
    ]
