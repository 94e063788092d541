# Provably fair dice for paired matches (docs/rules.md, Platform rules): each wait carries its
# player's client seed and a server seed drawn at the join.

import games.fairness.dice
from django.db import migrations, models


def seed_waiting_entries(apps, schema_editor):
    """Players already waiting get a client seed drawn by the server (their browser sent none)
    and a server seed of their own (AddField gave every row the same one)."""
    from games.fairness import new_client_seed, new_server_seed

    PoolEntry = apps.get_model("pairing", "PoolEntry")
    for entry in PoolEntry.objects.only("pk"):
        entry.client_seed = new_client_seed()
        entry.server_seed = new_server_seed()
        entry.save(update_fields=["client_seed", "server_seed"])


class Migration(migrations.Migration):

    dependencies = [
        ("pairing", "0001_pool_entries_proposals_paired_waits"),
        ("games", "0008_provably_fair_dice"),
    ]

    operations = [
        migrations.AddField(
            model_name="poolentry",
            name="client_seed",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="poolentry",
            name="server_seed",
            field=models.CharField(
                default=games.fairness.dice.new_server_seed, editable=False, max_length=64
            ),
        ),
        migrations.RunPython(seed_waiting_entries, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="poolentry",
            constraint=models.CheckConstraint(
                condition=models.Q(("client_seed__regex", "^[A-Za-z0-9_-]{0,64}$"))
                & ~models.Q(("client_seed", "")),
                name="pool_entry_client_seed_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="poolentry",
            constraint=models.CheckConstraint(
                condition=models.Q(("server_seed__regex", "^[0-9a-f]{64}$")),
                name="pool_entry_server_seed_valid",
            ),
        ),
    ]
