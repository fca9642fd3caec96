-- Where the hourly meter stopped reading a service's gateway usage log. The log counts transfer
-- and requests per hour of the gateway's own clock; each reading takes what the log gained since
-- the mark: the hours from `log_hour` on, less what was already counted of hour `log_hour` (its
-- counters here). So the hour still running is counted as far as it got, and the rest of it later.
CREATE TABLE object_storage_usage_marks (
  service_id bigint PRIMARY KEY REFERENCES object_storage_services (service_id) ON DELETE CASCADE,
  log_hour   timestamptz NOT NULL,
  bytes_in   bigint NOT NULL,
  bytes_out  bigint NOT NULL,
  requests   bigint NOT NULL
);
