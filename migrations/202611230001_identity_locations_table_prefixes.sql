-- Tables carry their module's name (src/modules/README.md): the identity module's accounts and
-- refresh tokens, the locations module's regions and countries. Constraints and indexes follow.
ALTER TABLE users RENAME TO identity_users;
ALTER TABLE refresh_tokens RENAME TO identity_refresh_tokens;
ALTER TABLE lb_regions RENAME TO locations_regions;
ALTER TABLE countries RENAME TO locations_countries;
