"""Tournament and series names follow the rule of text others read (config/showable_text.py):
the admin's forms check it from now on, and a name stored before that breaks it (a
right-to-left override, only invisible characters, a control character) is renamed by its id."""

import config.showable_text
from django.db import migrations, models


def rename_unshowable(apps, schema_editor) -> None:
    for model, word in (("Tournament", "Tournament"), ("Series", "Series")):
        rows = apps.get_model("tournaments", model).objects.all()
        for pk, name in rows.values_list("pk", "name").iterator():
            if not config.showable_text.is_showable(name):
                rows.filter(pk=pk).update(name=f"{word} {pk}")


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0001_initial'),
    ]

    operations = [
        migrations.AlterField(
            model_name='series',
            name='name',
            field=models.CharField(max_length=60, validators=[config.showable_text.validate_showable], verbose_name='name'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='name',
            field=models.CharField(max_length=60, validators=[config.showable_text.validate_showable], verbose_name='name'),
        ),
        migrations.RunPython(rename_unshowable, migrations.RunPython.noop),
    ]
