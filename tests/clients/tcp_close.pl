#!/usr/bin/perl
# A POS in Perl (core modules only): write the order to the screen's TCP port, close at once.
# usage: perl tcp_close.pl HOST PORT ORDER_ID
use strict;
use warnings;
use IO::Socket::INET;
use POSIX qw(strftime);

my ($host, $port, $id) = @ARGV;
# strftime %z gives the offset as +hhmm (no colon).
my $epoch = time;
my $time = strftime('%Y-%m-%dT%H:%M:%S%z', localtime $epoch);
my $sock = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port, Proto => 'tcp')
	or die "connect: $!\n";
print $sock qq({"command":"create-order","order":{"id":"$id","name":"Perl","time":"$time","mode":"For Here","items":[{"lineId":"1","name":"Chips","qty":1,"mods":[]}]}});
close($sock);
print qq({"sent":"$time","epoch":$epoch}\n);
