-- A service's redemption, read by the daily billing run for each renewal of a customer's service
-- (docs/staff-console.md, "Renewals").
CREATE INDEX staff_coupon_redemptions_service ON staff_coupon_redemptions (service_id);
