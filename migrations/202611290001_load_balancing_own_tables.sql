-- Load balancing is a module of its own (src/modules/load-balancing/): its tables carry its name.
-- Their rows, constraints, indexes and the foreign keys to dns_zones stay as they are.
ALTER TABLE dns_lb_pools RENAME TO load_balancing_pools;
ALTER TABLE dns_lb_members RENAME TO load_balancing_members;
ALTER TABLE dns_lb_member_probes RENAME TO load_balancing_member_probes;
ALTER TABLE dns_lb_member_health_changes RENAME TO load_balancing_member_health_changes;
ALTER TABLE dns_load_balancers RENAME TO load_balancing_load_balancers;
