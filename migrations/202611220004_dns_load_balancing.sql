-- DNS load balancing: origin pools, their members (origins) and load balancers. A load balancer's
-- pool lists (default, per region, per country, per PoP) are jsonb: they are small (at most 200
-- steering entries), always read whole, and checked against the zone's pools by the service, which
-- runs every change with the zone row locked.
CREATE TABLE dns_lb_pools (
  id                    bigserial PRIMARY KEY,
  zone_id               bigint NOT NULL REFERENCES dns_zones (id) ON DELETE CASCADE,
  name                  text NOT NULL,
  description           text,
  algorithm             text NOT NULL DEFAULT 'weighted_rr',
  ttl                   integer NOT NULL DEFAULT 30,
  session_affinity      text NOT NULL DEFAULT 'none',
  primary_location_code text,
  enabled               boolean NOT NULL DEFAULT true,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX dns_lb_pools_zone_name_key ON dns_lb_pools (zone_id, name);

CREATE TABLE dns_lb_members (
  id                bigserial PRIMARY KEY,
  pool_id           bigint NOT NULL REFERENCES dns_lb_pools (id) ON DELETE CASCADE,
  zone_id           bigint NOT NULL REFERENCES dns_zones (id) ON DELETE CASCADE,
  address           text NOT NULL,
  address_type      text NOT NULL DEFAULT 'A',
  weight            integer NOT NULL DEFAULT 1,
  priority          integer NOT NULL DEFAULT 0,
  enabled           boolean NOT NULL DEFAULT true,
  health_mode       text NOT NULL DEFAULT 'none',
  health_path       text NOT NULL DEFAULT '/',
  health_port       integer,
  health_interval_s integer NOT NULL DEFAULT 30,
  health_timeout_s  integer NOT NULL DEFAULT 5,
  -- unknown | healthy | unhealthy, written by the health checker.
  health_status     text NOT NULL DEFAULT 'unknown',
  last_check_at     timestamptz,
  last_error        text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dns_lb_members_pool_idx ON dns_lb_members (pool_id, id);
CREATE INDEX dns_lb_members_zone_idx ON dns_lb_members (zone_id);

CREATE TABLE dns_load_balancers (
  id                bigserial PRIMARY KEY,
  zone_id           bigint NOT NULL REFERENCES dns_zones (id) ON DELETE CASCADE,
  name              text NOT NULL,
  -- Stored-form FQDN: lower case, no trailing dot.
  hostname          text NOT NULL,
  ttl               integer NOT NULL DEFAULT 30,
  session_affinity  text NOT NULL DEFAULT 'none',
  steering_policy   text NOT NULL DEFAULT 'off',
  location_strategy text NOT NULL DEFAULT 'pop',
  default_pools     jsonb NOT NULL DEFAULT '[]',
  fallback_pool_id  bigint REFERENCES dns_lb_pools (id),
  region_pools      jsonb NOT NULL DEFAULT '{}',
  country_pools     jsonb NOT NULL DEFAULT '{}',
  location_pools    jsonb NOT NULL DEFAULT '{}',
  on_all_unhealthy  text NOT NULL DEFAULT 'serve_last',
  enabled           boolean NOT NULL DEFAULT true,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX dns_load_balancers_zone_hostname_key ON dns_load_balancers (zone_id, hostname);
