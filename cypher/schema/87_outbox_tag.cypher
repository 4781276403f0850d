CREATE RANGE INDEX outbox_tag IF NOT EXISTS FOR (o:OutboxEntry) ON (o.tag)
