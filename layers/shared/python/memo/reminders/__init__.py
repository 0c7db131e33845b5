"""Reminder delivery: the EventBridge Scheduler target that sends a due reminder on WhatsApp."""
