"""The audit trail is append-only in the database itself: UPDATE and DELETE raise. (TRUNCATE is
left to the operator: the test suite empties tables between tests with it.)"""

from django.db import migrations

FUNCTION = """
CREATE FUNCTION moderation_audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'moderation_auditentry is append-only (% refused)', TG_OP;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER moderation_audit_append_only
    BEFORE UPDATE OR DELETE ON moderation_auditentry
    FOR EACH ROW EXECUTE FUNCTION moderation_audit_append_only();
"""
REVERSE = """
DROP TRIGGER IF EXISTS moderation_audit_append_only ON moderation_auditentry;
DROP FUNCTION IF EXISTS moderation_audit_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("moderation", "0001_blocks_reports_sanctions_audit")]

    operations = [migrations.RunSQL(FUNCTION, REVERSE)]
