-- Game proxy: join addresses for Minecraft Java servers. A route is `<subdomain>.<base_domain>` on
-- the game edge, owned by an account (and optionally an organization); it may have one custom
-- domain pointed at it by CNAME; a partner's boost gives the free game server behind a route more
-- memory for a while.
CREATE TABLE gameproxy_routes (
  id                       bigserial PRIMARY KEY,
  user_id                  bigint NOT NULL,
  org_id                   bigint,
  subdomain                text NOT NULL,
  base_domain              text NOT NULL,
  display_name             text,
  description              text,
  mode                     text NOT NULL DEFAULT 'proxy' CHECK (mode IN ('proxy', 'status_only')),
  upstream_service_id      bigint,
  upstream_host            text,
  upstream_port            integer,
  location_id              bigint,
  online_motd              text,
  offline_motd             text,
  favicon                  text,
  version_name             text,
  status_cache_ttl_seconds integer NOT NULL,
  proxy_protocol           boolean NOT NULL DEFAULT false,
  real_ip                  boolean NOT NULL DEFAULT false,
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL,
  UNIQUE (subdomain, base_domain)
);
CREATE INDEX gameproxy_routes_user_idx ON gameproxy_routes (user_id, id);
CREATE INDEX gameproxy_routes_org_idx ON gameproxy_routes (org_id, id) WHERE org_id IS NOT NULL;

-- One custom domain per route; a domain names one route.
CREATE TABLE gameproxy_custom_domains (
  route_id         bigint PRIMARY KEY REFERENCES gameproxy_routes (id) ON DELETE CASCADE,
  domain           text NOT NULL,
  subdomain        text,
  fqdn             text NOT NULL UNIQUE,
  status           text NOT NULL CHECK (status IN ('pending', 'verified', 'failed')),
  include_in_list  boolean NOT NULL DEFAULT false,
  -- The managed CNAME published in a zone hosted here (null: the user points it themselves).
  managed_zone_id  bigint,
  checked_at       timestamptz,
  next_check_at    timestamptz NOT NULL,
  -- Daily checks in a row that did not find the CNAME once verified (3 → failed).
  missed_checks    integer NOT NULL DEFAULT 0,
  last_error       text,
  created_at       timestamptz NOT NULL
);
CREATE INDEX gameproxy_custom_domains_due_idx ON gameproxy_custom_domains (next_check_at);

-- Partner boosts: a claim is answered again on a retry with the same claim_id.
CREATE TABLE gameproxy_boosts (
  id             bigserial PRIMARY KEY,
  org_id         bigint NOT NULL,
  partner        text NOT NULL,
  claim_id       text NOT NULL,
  route_id       bigint NOT NULL,
  service_id     bigint NOT NULL,
  server_address text NOT NULL,
  memory_mb      integer NOT NULL,
  created_at     timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL,
  UNIQUE (org_id, partner, claim_id)
);
CREATE INDEX gameproxy_boosts_service_idx ON gameproxy_boosts (service_id, expires_at);
