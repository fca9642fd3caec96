-- Each OS template names the Proxmox VE template VM its instances are cloned from (cloud compute,
-- docs/compute.md): one vmid every node holds, or a vmid per node name, as JSON. Null: none yet.
ALTER TABLE catalog_os_templates ADD COLUMN pve_template_vmid jsonb;
