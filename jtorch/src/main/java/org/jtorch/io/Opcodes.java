package org.jtorch.io;

/** The pickle opcodes JTorch reads or writes (binary forms of protocols 0–5; text forms are refused). */
final class Opcodes {
    private Opcodes() {}

    static final int MARK = '(';
    static final int STOP = '.';
    static final int POP = '0';
    static final int POP_MARK = '1';
    static final int DUP = '2';
    static final int BINFLOAT = 'G';
    static final int BININT = 'J';
    static final int BININT1 = 'K';
    static final int BININT2 = 'M';
    static final int NONE = 'N';
    static final int BINPERSID = 'Q';
    static final int REDUCE = 'R';
    static final int BINSTRING = 'T';
    static final int SHORT_BINSTRING = 'U';
    static final int BINUNICODE = 'X';
    static final int APPEND = 'a';
    static final int BUILD = 'b';
    static final int GLOBAL = 'c';
    static final int APPENDS = 'e';
    static final int BINGET = 'h';
    static final int LONG_BINGET = 'j';
    static final int BINPUT = 'q';
    static final int LONG_BINPUT = 'r';
    static final int SETITEM = 's';
    static final int TUPLE = 't';
    static final int SETITEMS = 'u';
    static final int EMPTY_DICT = '}';
    static final int EMPTY_LIST = ']';
    static final int EMPTY_TUPLE = ')';
    // protocol 2
    static final int PROTO = 0x80;
    static final int NEWOBJ = 0x81;
    static final int TUPLE1 = 0x85;
    static final int TUPLE2 = 0x86;
    static final int TUPLE3 = 0x87;
    static final int NEWTRUE = 0x88;
    static final int NEWFALSE = 0x89;
    static final int LONG1 = 0x8a;
    static final int LONG4 = 0x8b;
    // protocol 3
    static final int BINBYTES = 'B';
    static final int SHORT_BINBYTES = 'C';
    // protocol 4
    static final int SHORT_BINUNICODE = 0x8c;
    static final int BINUNICODE8 = 0x8d;
    static final int BINBYTES8 = 0x8e;
    static final int EMPTY_SET = 0x8f;
    static final int ADDITEMS = 0x90;
    static final int FROZENSET = 0x91;
    static final int STACK_GLOBAL = 0x93;
    static final int MEMOIZE = 0x94;
    static final int FRAME = 0x95;
    // protocol 5
    static final int BYTEARRAY8 = 0x96;
}
