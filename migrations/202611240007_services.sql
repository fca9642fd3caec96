-- The services registry: every hosted product an account or organization holds, its
-- lifecycle (pending → provisioning → active | failed; pending_termination → terminated) and its
-- events. The product module behind it (its provisioner) owns what the service is made of.
CREATE TABLE services (
  id             bigserial PRIMARY KEY,
  user_id        bigint NOT NULL,
  org_id         bigint,
  product_id     bigint NOT NULL,
  -- The product's name when ordered (the catalogue may rename it later).
  product_name   text NOT NULL,
  pricing_id     bigint NOT NULL,
  module_name    text NOT NULL,
  resource_type  text NOT NULL,
  label          text NOT NULL,
  status         text NOT NULL CHECK (status IN
                   ('pending', 'provisioning', 'active', 'suspended', 'pending_termination', 'terminated', 'failed')),
  status_reason  text,
  location_code  text,
  config         jsonb NOT NULL DEFAULT '{}',
  billing_cycle  text NOT NULL,
  price          numeric(12, 4) NOT NULL,
  currency       text NOT NULL,
  next_due_date  timestamptz,
  terminated_at  timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX services_user_idx ON services (user_id, id DESC);
CREATE INDEX services_org_idx ON services (org_id, id DESC) WHERE org_id IS NOT NULL;

CREATE TABLE services_events (
  id          bigserial PRIMARY KEY,
  service_id  bigint NOT NULL REFERENCES services (id) ON DELETE CASCADE,
  type        text NOT NULL,
  message     text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX services_events_service_idx ON services_events (service_id, id DESC);
