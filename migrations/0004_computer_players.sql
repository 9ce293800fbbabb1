-- Computer players sit in seats like people: a computer seat names its level (easy, medium or
-- hard); a person's seat leaves it NULL. Its user_id is `computer:LEVEL:N`, unique in its game.
ALTER TABLE seats ADD COLUMN computer TEXT;
