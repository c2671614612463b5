from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0025_table_invite_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="pace",
            field=models.CharField(
                choices=[("normal", "Normal"), ("fast", "Fast")], default="normal", max_length=8
            ),
        ),
    ]
