# Spins forever in the check's own process.
while True:
    pass


def escaped():
    return True
