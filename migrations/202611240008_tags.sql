-- Resource tags: strings on a resource named by source_type and source_id. The
-- resource's holder is copied in when it is tagged, so the vocabulary reads the caller's tags
-- without asking every module for its resources.
CREATE TABLE tags (
  source_type text NOT NULL,
  source_id   bigint NOT NULL,
  tag         text NOT NULL,
  user_id     bigint NOT NULL,
  org_id      bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source_type, source_id, tag)
);
CREATE INDEX tags_user_idx ON tags (user_id, source_type, tag) WHERE org_id IS NULL;
CREATE INDEX tags_org_idx ON tags (org_id, source_type, tag) WHERE org_id IS NOT NULL;
