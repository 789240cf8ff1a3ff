-- DropIndex
DROP INDEX "ChangeEvent_entity_entityKey_idx";

-- CreateIndex
CREATE INDEX "ChangeEvent_entity_entityKey_id_idx" ON "ChangeEvent"("entity", "entityKey", "id");

-- CreateIndex
CREATE INDEX "ChangeEvent_actor_id_idx" ON "ChangeEvent"("actor", "id");

-- CreateIndex
CREATE INDEX "ChangeEvent_action_id_idx" ON "ChangeEvent"("action", "id");
