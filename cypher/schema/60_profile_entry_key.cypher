CREATE CONSTRAINT profile_entry_key IF NOT EXISTS FOR (p:ProfileEntry) REQUIRE (p.tenant_id, p.user_id, p.key, p.value_norm) IS UNIQUE
