CREATE TABLE "teacher_availability" (
	"teacher_id" text PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"weekly_hours" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "teacher_availability" ADD CONSTRAINT "teacher_availability_teacher_id_teacher_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teacher"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_slot_taken_idx" ON "booking" USING btree ("teacher_id","start") WHERE "booking"."start" is not null and "booking"."cancelled_at" is null;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_token_hash_unique" UNIQUE("token_hash");