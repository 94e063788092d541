from django.db import migrations, models


class Migration(migrations.Migration):
    """"Confirm my turn": off for the players already here (their turns end by themselves, as
    before), on for every player who joins from now on."""

    dependencies = [
        ("accounts", "0006_play_forced_and_sounds_muted"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="confirm_turn",
            field=models.BooleanField(default=False, verbose_name="confirm my turn"),
        ),
        migrations.AlterField(
            model_name="user",
            name="confirm_turn",
            field=models.BooleanField(
                db_default=True,
                default=True,
                help_text="After my last step, wait for Confirm (or Undo) before the turn passes.",
                verbose_name="confirm my turn",
            ),
        ),
    ]
