-- Flap damping per pool: health_fall failed (health_rise passed) quorum verdicts in a row move a
-- member of the pool; NULL takes the deployment's HEALTH_FALL / HEALTH_RISE (1 and 1 by default).
ALTER TABLE load_balancing_pools
  ADD COLUMN health_fall smallint CHECK (health_fall BETWEEN 1 AND 10),
  ADD COLUMN health_rise smallint CHECK (health_rise BETWEEN 1 AND 10);
