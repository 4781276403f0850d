CREATE CONSTRAINT user_id IF NOT EXISTS FOR (u:User) REQUIRE (u.tenant_id, u.user_id) IS UNIQUE
