CREATE TABLE "booking_limit" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "hold_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "learner_time_zone" text;--> statement-breakpoint
CREATE INDEX "booking_hold_expires_idx" ON "booking" USING btree ("hold_expires_at") WHERE "booking"."hold_expires_at" is not null;