from django.db import migrations, models


class Migration(migrations.Migration):
    """How the pages and the board look: light or dark, the board's theme, the checkers
    (accounts/appearance.py); everyone starts on the device's scheme and the wood board."""

    dependencies = [
        ("accounts", "0008_expert_bot"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="board_theme",
            field=models.CharField(
                choices=[
                    ("wood", "Classic wood"),
                    ("felt", "Green felt"),
                    ("contrast", "High contrast"),
                ],
                db_default="wood",
                default="wood",
                max_length=12,
                verbose_name="board",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="checker_colours",
            field=models.CharField(
                choices=[
                    ("ivory-ebony", "Ivory and ebony"),
                    ("ivory-crimson", "Ivory and crimson"),
                    ("pearl-navy", "Pearl and navy"),
                ],
                db_default="ivory-ebony",
                default="ivory-ebony",
                help_text="The high-contrast board keeps its own white and black checkers.",
                max_length=16,
                verbose_name="checkers",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="colour_scheme",
            field=models.CharField(
                choices=[("system", "As the device"), ("light", "Light"), ("dark", "Dark")],
                db_default="system",
                default="system",
                max_length=8,
                verbose_name="light or dark",
            ),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.CheckConstraint(
                condition=models.Q(("colour_scheme__in", ["system", "light", "dark"])),
                name="user_colour_scheme_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.CheckConstraint(
                condition=models.Q(("board_theme__in", ["wood", "felt", "contrast"])),
                name="user_board_theme_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("checker_colours__in", ["ivory-ebony", "ivory-crimson", "pearl-navy"])
                ),
                name="user_checker_colours_known",
            ),
        ),
    ]
